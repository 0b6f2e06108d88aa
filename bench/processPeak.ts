/**
 * The peak RSS of processes another program starts, read from outside them: every INTERVAL_MS the
 * kernel's high-water mark (`VmHWM` in /proc/<pid>/status) of each process whose executable is
 * the one watched. A plugin the engine starts is killed when its command ends, so nothing inside
 * it can report at exit; the mark only grows, so the last reading before the process goes is its
 * peak to within the growth of one interval. Linux only (the benchmarks' machines).
 */
import { processesOf, statusOf } from "../test/e2e/support/processes";

/** How often the processes are read. */
export const INTERVAL_MS = 50;

/** A watch started by watchPeakRss. */
export interface PeakWatch {
  /** Stops reading; the highest mark of any matching process, in MB, and how many were seen. */
  stop(): { peakMB: number; processes: number };
}

/** Watches every process whose executable's path is `executable` until stop(). */
export function watchPeakRss(executable: string): PeakWatch {
  const peaks = new Map<number, number>();
  const read = () => {
    for (const pid of processesOf(executable)) {
      const status = statusOf(pid);
      const kb = status === undefined ? undefined : highWaterKB(status);
      if (kb !== undefined) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb));
    }
  };
  read();
  const timer = setInterval(read, INTERVAL_MS);
  return {
    stop() {
      clearInterval(timer);
      read();
      const highest = Math.max(0, ...peaks.values());
      return { peakMB: Math.round((highest / 1024) * 10) / 10, processes: peaks.size };
    },
  };
}

/** `VmHWM` of a /proc/<pid>/status text, in kB. */
export function highWaterKB(status: string): number | undefined {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) : undefined;
}
