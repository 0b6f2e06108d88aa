/**
 * Processes seen through Linux's /proc: the children of a process, and whether any process still
 * runs with a given string in its environment (every process a test's CLI run started inherits
 * that test's unique workspace path).
 */
import * as fs from "fs";

function pids(): number[] {
  return fs
    .readdirSync("/proc")
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid !== process.pid);
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "latin1");
  } catch {
    return undefined;
  }
}

/** The processes whose executable is `file` (/proc/<pid>/exe), this one left out. */
export function processesOf(file: string): number[] {
  return pids().filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/exe`) === file;
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

/** Process `pid`'s /proc/<pid>/status, or undefined once it is gone. */
export function statusOf(pid: number): string | undefined {
  return read(`/proc/${pid}/status`);
}

/** The direct children of `parent` whose command name is `name`. */
export function childrenNamed(parent: number, name: string): number[] {
  return pids().filter((pid) => {
    const stat = read(`/proc/${pid}/stat`);
    if (!stat) return false;
    // "pid (comm) state ppid ...": comm may hold spaces, so split after the last ')'.
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return ppid === parent && comm === name;
  });
}

/** Processes whose environment contains `needle` (zombies, which hold no environment, excluded). */
export function processesWithEnv(needle: string): number[] {
  return pids().filter((pid) => read(`/proc/${pid}/environ`)?.includes(needle) ?? false);
}

/** Every process below `ancestor` (children, their children, …). */
export function descendantsOf(ancestor: number): number[] {
  const parents = new Map<number, number>();
  for (const pid of pids()) {
    const stat = read(`/proc/${pid}/stat`);
    if (stat) parents.set(pid, Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
  }
  const below: number[] = [];
  for (let frontier = [ancestor]; frontier.length > 0;) {
    frontier = [...parents].filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    below.push(...frontier);
  }
  return below;
}

/** The command line of `pid`, its arguments joined by spaces ("" once it has exited). */
export function commandLine(pid: number): string {
  return (read(`/proc/${pid}/cmdline`) ?? "").split("\0").join(" ").trim();
}

/** Whether `pid` still runs (a killed zombie, not yet reaped by its new parent, does not). */
export function isRunning(pid: number): boolean {
  const stat = read(`/proc/${pid}/stat`);
  return stat !== undefined && !/^\d+ \(.*\) Z/.test(stat);
}
