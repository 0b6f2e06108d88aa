/**
 * The API going away in the middle of an `up` on the real engine: the emulator (its CLI, a
 * process of its own) is killed with SIGKILL while a fleet is being created, and restarted on the
 * same port and state file. The `up` fails or recovers, at most one more `up` converges, and
 * nothing the emulator answered is lost: every machine in the stack exists after the restart, and
 * no machine exists twice or outside the stack.
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import { readyLine } from "../../tools/emulatorReady";
import { control } from "../kit/emulator";
import { liveMachines, PROGRAMS, TIME_SCALE } from "./support/kit";
import { EngineStack, EngineWorkspace } from "./support/engineStack";
import { REPO, type CliRun } from "./support/cli";

const CLI = path.join(REPO, "dist", "emulator", "cli.js");
const COUNT = 10;
jest.setTimeout(240_000);

let workspace: EngineWorkspace;
let child: ChildProcess | undefined;

/** Starts the emulator CLI and resolves with its URL once it printed its ready line. */
async function startCli(stateFile: string, port: number): Promise<{ url: string; port: number }> {
  const args = [CLI, "--port", String(port), "--state-file", stateFile, "--time-scale", String(TIME_SCALE)];
  child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  const { url } = await readyLine(child);
  return { url, port: Number(new URL(url).port) };
}

beforeAll(() => {
  workspace = new EngineWorkspace();
});
afterAll(() => {
  child?.kill("SIGKILL");
  workspace.dispose();
});

test("up: emulator SIGKILLed and restarted mid-up → at most one more up converges; nothing answered is lost", async () => {
  const stateFile = path.join(workspace.dir, "emulator-state.json");
  const first = await startCli(stateFile, 0);
  const stack = await EngineStack.create(workspace, path.join(PROGRAMS, "fleet"), {
    "vmapi:baseUrl": first.url,
    "vmapi:apiKey": { secret: "dev-individual-key" },
    "vmapi:pollScale": String(TIME_SCALE),
    count: String(COUNT),
  });
  try {
    const up = stack.up();
    // Kill once some machines exist but not all: the update is in full flight.
    while ((await control(first.url).state()).machines.length < 3)
      await new Promise((r) => setTimeout(r, 20));
    child!.kill("SIGKILL");
    await new Promise((r) => child!.once("exit", r));
    await startCli(stateFile, first.port);

    const runs: CliRun[] = [await up];
    if (runs[0].code !== 0) runs.push(await stack.up());
    expect(runs[runs.length - 1].code).toBe(0);

    const dump = await control(first.url).state();
    const inStack = (await stack.resources()).filter((r) => r.type.endsWith(":Machine")).map((r) => r.id!);
    expect(inStack).toHaveLength(COUNT);
    expect(
      liveMachines(dump)
        .map((m) => m.id)
        .sort(),
    ).toEqual([...inStack].sort());
    expect(dump.scripts).toHaveLength(COUNT);

    expect((await stack.destroy()).code).toBe(0);
    expect(liveMachines(await control(first.url).state())).toEqual([]);
  } finally {
    await stack.remove();
  }
});
