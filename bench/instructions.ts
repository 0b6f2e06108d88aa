/**
 * Benchmark 8: the plugin's work counted in instructions (callgrind), which the shared machine's
 * load does not change: its first answer (main thread, exec to GetPluginInfo answered:
 * startInstructions.ts), one Machine's Check + Diff as a preview asks them and its Read + Diff as a
 * refresh asks them (every thread: resourceInstructions.ts), each beside the Go no-op plugin's.
 * Needs valgrind on PATH.
 */
import { resourceInstructions, type ResourceCount } from "./resourceInstructions";
import { startInstructions, type StartCount } from "./startInstructions";

export interface InstructionsResult {
  start: StartCount[];
  /** Resources of the per-resource count. */
  resources: number;
  perResource: ResourceCount[];
  /** A refresh's Read + Diff per resource (absent from results recorded before 2026-12-07). */
  refreshPerResource?: ResourceCount[];
}

export async function instructionsBenchmark(resources: number): Promise<InstructionsResult> {
  return {
    start: await startInstructions(["release", "goNoop", "node"]),
    resources,
    perResource: await resourceInstructions(resources),
    refreshPerResource: await resourceInstructions(resources, "refresh"),
  };
}
