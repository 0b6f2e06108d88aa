/**
 * The emulator CLI (`dist/emulator/cli.js`) in a child process, so its CPU and memory are its own:
 * the load generator and the providers run in this process, the server in that one, as against a
 * real API. A preloaded probe answers memory and CPU-time questions over IPC.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { readyLine } from "../tools/emulatorReady";

const REPO_ROOT = path.resolve(__dirname, "..");
const CLI = path.join(REPO_ROOT, "dist", "emulator", "cli.js");
const PROBE = path.join(__dirname, "memoryProbe.cjs");

/** A running emulator child. */
export interface EmulatorProcess {
  url: string;
  apiKey: string;
  pid: number;
  /** `process.memoryUsage()` of the child after a full GC. */
  memory(): Promise<NodeJS.MemoryUsage>;
  /** `process.cpuUsage()` of the child: the CPU time it has used so far. */
  cpu(): Promise<NodeJS.CpuUsage>;
  stop(): Promise<void>;
}

/** Starts `node dist/emulator/cli.js --port 0 ...flags` and waits for its ready line. */
export async function startEmulatorProcess(flags: string[]): Promise<EmulatorProcess> {
  // stderr (one log line per request) is discarded: the emulator still formats it, as it would in use.
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--require", PROBE, CLI, "--port", "0", "--host", "127.0.0.1", ...flags],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "ignore", "ipc"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await readyLine(child);
  return {
    url: ready.url,
    apiKey: ready.keys.individual,
    pid: child.pid ?? -1,
    memory: async () => (await ask<{ memory: NodeJS.MemoryUsage }>(child, "memory")).memory,
    cpu: async () => (await ask<{ cpu: NodeJS.CpuUsage }>(child, "cpu")).cpu,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

function ask<T>(child: ChildProcess, question: "memory" | "cpu"): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${question} answer from the emulator`)), 10_000);
    child.once("message", (message: T) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send(question);
  });
}
