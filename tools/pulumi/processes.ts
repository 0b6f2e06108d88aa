/**
 * Running the CLI as a terminal would, and leaving nothing behind: signals reach it once, its exit
 * code is ours, and plugin processes it started do not outlive it (when the CLI is killed, its
 * dynamic-provider plugins would otherwise keep running, mid-operation, with nobody listening).
 */
import { spawn } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";

/** How the CLI ended: an exit code, or the signal that killed it. */
export interface CliExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The environment variable that marks every process started for one CLI run. */
export const RUN_MARKER = "VMAPI_PULUMI_RUN";

/**
 * Runs `cli args` in `cwd` with the terminal's stdio. With a terminal, Ctrl-C reaches the CLI
 * from the terminal itself (same process group), so this process ignores it; without one (CI,
 * tests, a supervisor), the CLI gets a process group of its own and each signal this process
 * receives is passed on exactly once. The CLI's first SIGINT cancels gracefully and records
 * pending operations; a second one stops it at once.
 */
export async function runCli(
  cli: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<CliExit> {
  const marker = randomBytes(8).toString("hex");
  const terminal = process.stdin.isTTY === true;
  const child = spawn(cli, args, {
    cwd,
    env: { ...env, [RUN_MARKER]: marker },
    stdio: "inherit",
    detached: !terminal,
  });
  const forward = (signal: NodeJS.Signals) => () => {
    if (signal === "SIGINT" && terminal) return;
    child.kill(signal);
  };
  const handlers = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => [s, forward(s)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    return await new Promise<CliExit>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code, signal) => resolve({ code, signal }));
    });
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    await killMarked(marker);
  }
}

/** Stops every process (the CLI's plugins) still carrying `marker`; Linux's /proc only. */
export async function killMarked(marker: string): Promise<number[]> {
  const pids = markedProcesses(marker);
  for (const pid of pids) tryKill(pid, "SIGTERM");
  for (let waited = 0; waited < 3000 && pids.some(alive); waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const pid of pids.filter(alive)) tryKill(pid, "SIGKILL");
  return pids;
}

function markedProcesses(marker: string): number[] {
  if (!fs.existsSync("/proc/self/environ")) return [];
  const needle = `${RUN_MARKER}=${marker}\0`;
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "latin1").includes(needle)) pids.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return pids;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function tryKill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Exited in between.
  }
}

/** The exit code a shell reports for `exit`: the code, or 128 + the signal's number. */
export function exitCodeOf(exit: CliExit): number {
  if (exit.code !== null) return exit.code;
  const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signals[exit.signal ?? ""] ?? 1);
}
