/**
 * Bringing a machine to the wanted power state: starts or stops it when needed and waits,
 * one leg at a time, until it is `ready` or `off`.
 */
import type { VmApiClient } from "../client/client";
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
  /** Clock for elapsed time in progress lines. */
  now?: () => number;
}

/** Legs are bounded: start → ready, or stop → off, after at most one transition to finish. */
const MAX_LEGS = 4;

/** Waits (and starts or stops) until the machine is in `target`; returns it with events. */
export async function settleMachine(
  client: VmApiClient,
  id: string,
  target: "ready" | "off",
  options: SettleOptions,
): Promise<ApiMachine> {
  const now = options.now ?? Date.now;
  const started = now();
  let machine = options.current ?? (await client.machines.get(id));
  for (let leg = 0; leg < MAX_LEGS; leg++) {
    if (machine.state === target) return machine;
    const next = await nextLeg(client, machine, target, options.provisionsTo ?? "ready");
    const remaining = options.timeoutMs - (now() - started);
    machine = await client.machines.waitFor(id, next, {
      timeoutMs: Math.max(remaining, 1),
      onProgress: (p: { state: string }) => {
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
) {
  switch (machine.state) {
    case "off":
      if (target === "ready") await client.machines.start(machine.id);
      return target;
    case "ready":
    case "serviceready":
      if (target === "off") {
        await client.machines.stop(machine.id);
        return "off" as const;
      }
      return "ready" as const;
    case "stopping":
      return "off" as const;
    case "provisioning":
      return provisionsTo;
    default:
      return "ready" as const;
  }
}
