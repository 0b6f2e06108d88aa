/**
 * The record of the local emulator (.vmapi/emulator.json) holds its API keys: readable by its
 * owner only. `stop-emulator` says "stopped" only once the process has exited.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as net from "node:net";
import * as path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-local-"));
process.env.VMAPI_WORKDIR = dir;
const INFO = path.join(dir, "emulator.json");
type LocalEmulatorModule = typeof import("../../../tools/localEmulator");
let local: LocalEmulatorModule;
const children: ChildProcess[] = [];

beforeAll(async () => {
  local = await import("../../../tools/localEmulator");
});
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

const keys = { individual: "k1", teamAdmin: "k2", teamMember: "k3" };

/** A process that takes `delayMs` to exit after SIGTERM, as the emulator flushing its state does. */
function slowToStop(delayMs: number): Promise<{ child: ChildProcess; exitedAt: () => number | undefined }> {
  const script = `process.on("SIGTERM", () => setTimeout(() => process.exit(0), ${delayMs})); console.log("up"); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  let exitedAt: number | undefined;
  child.once("exit", () => (exitedAt = Date.now()));
  return new Promise((resolve) =>
    child.stdout!.once("data", () => resolve({ child, exitedAt: () => exitedAt })),
  );
}

describe("local emulator record", () => {
  it("writeInfo: → mode 0600, even over an older world-readable record", () => {
    fs.writeFileSync(INFO, "{}");
    fs.chmodSync(INFO, 0o644);
    local.writeInfo({ url: "http://127.0.0.1:1", pid: 1, keys });
    expect(fs.statSync(INFO).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(INFO, "utf8"))).toMatchObject({ keys });
    expect(fs.readdirSync(dir)).toEqual(["emulator.json"]);
  });

  it("stopEmulator: a process slow to exit → 'stopped' said only after it exited; record kept as not running", async () => {
    const { child, exitedAt } = await slowToStop(300);
    local.writeInfo({ url: "http://127.0.0.1:1", pid: child.pid!, keys });
    const said: { line: string; exitedBefore: boolean }[] = [];
    await local.stopEmulator((line) => said.push({ line, exitedBefore: exitedAt() !== undefined }));
    expect(said).toEqual([
      {
        line: `stopped the emulator (pid ${child.pid}); its state stays in .vmapi/emulator-state.json`,
        exitedBefore: true,
      },
    ]);
    // The record stays (pid 0) so the next command restarts the emulator on the same port.
    expect(JSON.parse(fs.readFileSync(INFO, "utf8"))).toMatchObject({ url: "http://127.0.0.1:1", pid: 0 });
  });

  it("stopEmulator: a process that outlives the timeout → says so, keeps the record", async () => {
    const { child } = await slowToStop(60_000);
    local.writeInfo({ url: "http://127.0.0.1:1", pid: child.pid!, keys });
    const said: string[] = [];
    await local.stopEmulator((line) => said.push(line), 200);
    expect(said).toEqual([`the emulator (pid ${child.pid}) has not exited 0.2 s after SIGTERM`]);
    expect(fs.existsSync(INFO)).toBe(true);
    child.kill("SIGKILL");
  });
});

describe("local emulator restart", () => {
  it("ensureEmulator: the recorded port held by another socket for a moment → restarted on that very port once it is free", async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as net.AddressInfo).port;
    local.writeInfo({ url: `http://127.0.0.1:${port}`, pid: 0, keys });
    // Freed once the emulator has been refused the port at least once (its log says so).
    const log = path.join(dir, "emulator.log");
    const release = setInterval(() => {
      if (fs.existsSync(log) && fs.readFileSync(log, "utf8").includes("EADDRINUSE")) {
        clearInterval(release);
        holder.close();
      }
    }, 20);
    const said: string[] = [];
    const info = await local.ensureEmulator((line) => said.push(line));
    clearInterval(release);
    expect(info.url).toBe(`http://127.0.0.1:${port}`);
    expect(said).toEqual([
      expect.stringMatching(/^emulator restarted on its state file at http:\/\/127\.0\.0\.1:/),
    ]);
    await local.stopEmulator(() => undefined);
  });
});
