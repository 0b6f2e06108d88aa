/**
 * The one place that waits for an emulator child process to be ready: the CLI prints exactly
 * one JSON line on stdout (`{"url": ..., "keys": {...}}`) once it listens.
 */
import type { ChildProcess } from "child_process";
import { createInterface } from "readline";

/** What the emulator CLI prints when it is ready. */
export interface ReadyLine {
  url: string;
  /** The web console: `<url>/_console/`. */
  console: string;
  keys: { individual: string; teamAdmin: string; teamMember: string };
}

/** Resolves with the child's ready line; rejects if it exits first or takes over `timeoutMs`. */
export function readyLine(child: ChildProcess, timeoutMs = 20_000): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(
      () => reject(new Error(`the emulator did not start within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    lines.once("line", (line) => {
      clearTimeout(timer);
      lines.close();
      resolve(JSON.parse(line) as ReadyLine);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it was ready`));
    });
  });
}
