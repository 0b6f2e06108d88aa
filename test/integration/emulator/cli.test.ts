/**
 * The CLI as a real process: the ready line, clean SIGTERM/SIGINT exits, bad flags (exit 2), and
 * the state file surviving `kill -9`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { control } from "../../kit/emulator";
import { Api, createBody } from "./api";

const ROOT = path.resolve(__dirname, "../../..");
const READY =
  /^\{"url": "http:\/\/127\.0\.0\.1:(\d+)", "console": "http:\/\/127\.0\.0\.1:\1\/_console\/", "keys": \{"individual": "dev-individual-key", "teamAdmin": "dev-team-admin-key", "teamMember": "dev-team-member-key"\}\}$/;

interface Started {
  child: ChildProcessWithoutNullStreams;
  url: string;
  line: string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function spawnCli(args: string[]) {
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "src/emulator/cli.ts", ...args],
    {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

/** Spawns the CLI and waits for its ready line. */
async function start(args: string[]): Promise<Started> {
  const p = spawnCli(["--port", "0", ...args]);
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${p.stderr()}`)), 20_000);
    p.child.stdout.on("data", () => {
      const out = p.stdout();
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(out.split("\n")[0]);
      }
    });
    void p.exit.then(() => reject(new Error(`exited before ready: ${p.stderr()}`)));
  });
  return {
    child: p.child,
    url: (JSON.parse(line) as { url: string }).url,
    line,
    stderr: p.stderr,
    exit: p.exit,
  };
}

describe("cli", () => {
  it("cli: start → one JSON ready line; requests logged to stderr; SIGTERM → exit 0", async () => {
    const emu = await start(["--clock", "manual"]);
    expect(emu.line).toMatch(READY);
    const api = new Api(emu.url, "dev-individual-key");
    expect((await api.get("/users/getUsers")).status).toBe(200);
    emu.child.kill("SIGTERM");
    expect(await emu.exit).toEqual({ code: 0, signal: null });
    expect(emu.stderr()).toMatch(/^GET \/users\/getUsers 200 \d+ms$/m);
    expect(emu.stderr()).not.toContain("dev-individual-key");
  });

  it("cli: SIGINT → exit 0", async () => {
    const emu = await start([]);
    emu.child.kill("SIGINT");
    expect((await emu.exit).code).toBe(0);
  });

  it.each([
    [["--port", "abc"], /--port must be an integer 0\.\.65535 \(got "abc"\)/],
    [["--bogus"], /--bogus/],
    [["--time-scale", "-1"], /^vmapi-emulator: --time-scale must be a number >= 0 \(got "-1"\)\n$/],
  ])("cli: bad flags %j → exit 2 with a message naming the flag", async (args, message) => {
    const p = spawnCli(args);
    expect((await p.exit).code).toBe(2);
    expect(p.stderr()).toMatch(message);
    expect(p.stdout()).toBe("");
  });

  it("cli: --state-file that is not a state file → exit 2, one tidy line naming the flag, no schema dump", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-emu-"));
    try {
      const file = path.join(dir, "state.json");
      fs.writeFileSync(file, JSON.stringify({ version: 1, clockNow: null, random: 1, data: { keys: {} } }));
      const p = spawnCli(["--state-file", file]);
      expect((await p.exit).code).toBe(2);
      expect(p.stderr()).toMatch(
        /^vmapi-emulator: --state-file .*state\.json: not an emulator state file \(data\.keys\.individual is required; .*\)\n$/,
      );
      expect(p.stdout()).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("state file", () => {
  it("state file: create, kill -9, restart → machines, scripts, delegations, clock and ids survive", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-emu-"));
    const file = path.join(dir, "state.json");
    try {
      const first = await start(["--state-file", file, "--clock", "manual"]);
      const api = new Api(first.url, "dev-individual-key");
      const m = (await api.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())).body;
      const sc = (
        await api.post<{ id: string }>("/scripts/createScript", {
          scriptName: "s",
          scriptText: "echo",
          machineId: m.id,
        })
      ).body;
      await control(first.url).advance(61_000);
      await api.post(`/machines/${m.id}/stop`);
      const d = (
        await api.post<{ accessTokenId: string }>("/resourceDelegations/create", { machine: { ids: [m.id] } })
      ).body;
      first.child.kill("SIGKILL");
      expect((await first.exit).signal).toBe("SIGKILL");
      expect(fs.readdirSync(dir)).toEqual(["state.json"]);

      const second = await start(["--state-file", file, "--clock", "manual"]);
      try {
        const again = new Api(second.url, "dev-individual-key");
        const dump = await control(second.url).state();
        expect(dump.now).toBe("2026-01-15T09:01:01.000Z");
        expect(dump.machines.map((x) => [x.id, x.state])).toEqual([[m.id, "stopping"]]);
        expect((await again.get<{ id: string }>("/scripts/getScript", { scriptId: sc.id })).body.id).toBe(
          sc.id,
        );
        expect(
          (await again.as(d.accessTokenId).get("/machines/getMachinePublic", { machineId: m.id })).status,
        ).toBe(200);
        const next = (await again.post<{ id: string }>("/machines/createSingleMachinePublic", createBody()))
          .body.id;
        expect(next).not.toBe(m.id);
        const list = (await again.get<{ id: string; internalId: number }[]>("/machines/getMachines")).body;
        expect(list.map((x) => x.internalId)).toEqual([1, 2]);
      } finally {
        second.child.kill("SIGTERM");
        await second.exit;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
