/**
 * The emulator that `npm run demo` and `npm run pulumi` talk to: started once in the background
 * with its state in .vmapi/emulator-state.json, found again through .vmapi/emulator.json (mode
 * 0600: it holds the keys), and restarted on the same state file and port when it is not running,
 * so a stack's `vmapi:baseUrl` stays valid.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { readyLine, type ReadyLine } from "./emulatorReady";

/** Where the local tools keep everything: .vmapi/ (git-ignored), or VMAPI_WORKDIR. */
export const WORKDIR = path.resolve(process.env.VMAPI_WORKDIR ?? path.join(__dirname, "..", ".vmapi"));
const INFO = path.join(WORKDIR, "emulator.json");
const CLI = path.resolve(__dirname, "..", "dist", "emulator", "cli.js");
/** Lifecycles at 5 %: a 60 s provisioning takes 3 s, so the demo is quick but the waits are real. */
export const EMULATOR_TIME_SCALE = "0.05";

export interface LocalEmulator {
  url: string;
  pid: number;
  keys: { individual: string; teamAdmin: string; teamMember: string };
}

/** The running local emulator, started (or restarted on its recorded port) if needed. */
export async function ensureEmulator(say: (line: string) => void): Promise<LocalEmulator> {
  const known = readInfo();
  if (known && (await answers(known.url))) return known;
  if (!fs.existsSync(CLI)) throw new Error("dist/ is missing: run `npm run build` first");
  fs.mkdirSync(WORKDIR, { recursive: true });
  const port = known ? new URL(known.url).port : "0";
  const ready = await startOn(port);
  const info: LocalEmulator = { url: ready.url, pid: ready.pid, keys: ready.keys };
  writeInfo(info);
  say(
    `emulator ${known ? "restarted on its state file" : "started"} at ${info.url} ` +
      `(pid ${info.pid}, time scale ${EMULATOR_TIME_SCALE}, log .vmapi/emulator.log)`,
  );
  return info;
}

/** How long a restart waits for its recorded port while another socket holds it. */
const PORT_BUSY_WAIT_MS = 15_000;

/**
 * Starts the emulator process on `port` ("0": any). The stack config names the recorded port, so
 * a restart must have that one: while it is in use (a connection of another program may hold it
 * for a moment on a busy machine) the start is tried again, for up to PORT_BUSY_WAIT_MS; any
 * other failure is reported at once with the emulator's own reason from its log.
 */
async function startOn(port: string): Promise<ReadyLine & { pid: number }> {
  const logFile = path.join(WORKDIR, "emulator.log");
  const args = [CLI, "--port", port, "--state-file", path.join(WORKDIR, "emulator-state.json")];
  for (let waited = 0; ; waited += 500) {
    const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
    const log = fs.openSync(logFile, "a");
    const child = spawn(process.execPath, [...args, "--time-scale", EMULATOR_TIME_SCALE], {
      detached: true,
      stdio: ["ignore", "pipe", log],
    });
    fs.closeSync(log);
    try {
      const ready = await readyLine(child);
      child.stdout!.destroy();
      child.unref();
      return { ...ready, pid: child.pid! };
    } catch (err) {
      const said = fs.readFileSync(logFile, "utf8").slice(logStart).trim().split("\n").pop() ?? "";
      if (port !== "0" && /EADDRINUSE/.test(said) && waited < PORT_BUSY_WAIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      throw new Error(`${(err as Error).message}${said ? `: ${said}` : ""}`);
    }
  }
}

/** Restarts the local emulator only if one was started here before and is not running now. */
export async function restartIfRecorded(say: (line: string) => void): Promise<void> {
  if (readInfo()) await ensureEmulator(say);
}

/**
 * Stops the local emulator if it runs, and says "stopped" only once its process has exited. Its
 * state file stays, and so does its record (pid 0: not running), so the next command that needs
 * it restarts it on the same port.
 */
export async function stopEmulator(say: (line: string) => void, timeoutMs = 10_000): Promise<void> {
  const known = readInfo();
  if (!known) return say("no local emulator recorded");
  const stopped = () => writeInfo({ ...known, pid: 0 });
  if (known.pid === 0 || (await exited(known.pid, 0))) {
    stopped();
    return say("the emulator was not running");
  }
  process.kill(known.pid, "SIGTERM");
  if (!(await exited(known.pid, timeoutMs))) {
    return say(`the emulator (pid ${known.pid}) has not exited ${timeoutMs / 1000} s after SIGTERM`);
  }
  stopped();
  say(`stopped the emulator (pid ${known.pid}); its state stays in .vmapi/emulator-state.json`);
}

/** Whether process `pid` is gone within `timeoutMs` (polled: it is not our child to wait for). */
async function exited(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return true;
    }
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The running emulator's URL and keys, for its owner only (0600): written whole, never world-readable. */
export function writeInfo(info: LocalEmulator): void {
  const temp = `${INFO}.${process.pid}.tmp`;
  fs.writeFileSync(temp, JSON.stringify(info, null, 2), { mode: 0o600 });
  fs.renameSync(temp, INFO);
}

/** The recorded local emulator, if any. */
export function readInfo(): LocalEmulator | undefined {
  try {
    return JSON.parse(fs.readFileSync(INFO, "utf8")) as LocalEmulator;
  } catch {
    return undefined;
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/_emulator/state`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}
