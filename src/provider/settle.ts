/**
 * Bringing a machine to the wanted power state: starts or stops it when needed and waits,
 * one leg at a time, until it is `ready` or `off`.
 *
 * The waits poll as late as they usefully can (benchmarks: docs/benchmarks.md): a provisioning
 * takes about a minute, so its first poll is at 15 s; after a start, a stop or a read of the
 * machine the first poll is 1 s later, not at once. `pollScale` shrinks every delay for an API
 * whose lifecycle runs faster (the emulator with --time-scale).
 */
import type { VmApiClient } from "../client/client";
import type { WaitableState } from "../client/constants";
import type { Machine as ApiMachine } from "../client/schemas";
import { formatElapsed, type ProgressSink } from "./progress";

export interface SettleOptions {
  /** Total time allowed for every leg together. */
  timeoutMs: number;
  /** The machine's name, for progress lines. */
  label: string;
  progress: ProgressSink;
  /** Where a machine still provisioning ends: off when created with startOnCreate: false. */
  provisionsTo?: "ready" | "off";
  /** The machine as last seen, when the caller has just read it: saves one request. */
  current?: ApiMachine;
  /** Multiplies every polling delay (default 1). */
  pollScale?: number;
  /** Clock for elapsed time in progress lines. */
  now?: () => number;
}

/** Legs are bounded: start → ready, or stop → off, after at most one transition to finish. */
const MAX_LEGS = 4;
/** No provisioning has finished sooner than this: the first poll of a provisioning wait. */
export const PROVISIONING_FIRST_POLL_MS = 15_000;
/** The first poll after an action or a read: the state cannot have moved on in less. */
export const NEXT_POLL_MS = 1_000;
const POLL_CAP_MS = 10_000;

/** Waits (and starts or stops) until the machine is in `target`; returns it with events. */
export async function settleMachine(
  client: VmApiClient,
  id: string,
  target: "ready" | "off",
  options: SettleOptions,
): Promise<ApiMachine> {
  const now = options.now ?? Date.now;
  const scale = options.pollScale ?? 1;
  const started = now();
  let machine = options.current ?? (await client.machines.get(id));
  for (let leg = 0; leg < MAX_LEGS; leg++) {
    if (machine.state === target) return machine;
    const next = await nextLeg(client, machine, target, options.provisionsTo ?? "ready");
    const remaining = options.timeoutMs - (now() - started);
    const firstPoll = machine.state === "provisioning" ? PROVISIONING_FIRST_POLL_MS : NEXT_POLL_MS;
    options.progress(
      `machine ${options.label} (${id}): ${machine.state}, waiting for ${next} (${formatElapsed(now() - started)})`,
    );
    machine = await client.machines.waitFor(id, next, {
      timeoutMs: Math.max(remaining, 1),
      firstPollDelayMs: firstPoll * scale,
      pollPolicy: { initialDelayMs: NEXT_POLL_MS * scale, maxDelayMs: POLL_CAP_MS * scale },
      // Errors the machine had before this leg (e.g. a failed start of an earlier up) are old news.
      baseline: machine,
      onProgress: (p: { state: string; previousState?: string }) => {
        if (p.previousState === undefined && p.state === machine.state) return; // said above
        const elapsed = formatElapsed(now() - started);
        const what =
          p.state === next ? `${p.state} after ${elapsed}` : `${p.state}, waiting for ${next} (${elapsed})`;
        options.progress(`machine ${options.label} (${id}): ${what}`);
      },
    });
  }
  return machine;
}

/** Acts if the machine rests in the other state, and says which state to wait for next. */
async function nextLeg(
  client: VmApiClient,
  machine: ApiMachine,
  target: "ready" | "off",
  provisionsTo: "ready" | "off",
): Promise<WaitableState> {
  switch (machine.state) {
    case "off":
      if (target === "ready") await client.machines.start(machine.id);
      return target;
    case "ready":
    case "serviceready":
      if (target === "off") {
        await client.machines.stop(machine.id);
        return "off";
      }
      return "ready";
    case "stopping":
      return "off";
    case "provisioning":
      return provisionsTo;
    default:
      return "ready";
  }
}
