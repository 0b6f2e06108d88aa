/**
 * Bringing a machine to the wanted power state: starts or stops it when needed and waits,
 * one leg at a time, until it is `ready` or `off`.
 *
 * The waits poll as late as they usefully can (benchmarks: docs/benchmarks.md): a provisioning
 * takes about a minute, so its first poll is at 30 s (35 s on the schedule); after a start, a stop or a read of the
 * machine the first poll is 1 s later, not at once. `pollScale` shrinks every delay for an API
 * whose lifecycle runs faster (the emulator with --time-scale).
 */
import type { VmApiClient } from "../../client/client";
import type { WaitableState } from "../../contract/constants";
import type { Machine as ApiMachine } from "../../contract/schemas";
import type { MachineWatcher } from "./machineWatcher";
import type { PowerState } from "./machineModel";
import { formatElapsed, type ProgressSink } from "../account/progress";
import { notify } from "../../client/core/notify";

export interface SettleOptions {
  /** Total time allowed for every leg together. */
  timeoutMs: number;
  /** The machine's name, for progress lines. */
  label: string;
  progress: ProgressSink;
  /** Where a machine still provisioning ends: off when created with startOnCreate: false. */
  provisionsTo?: PowerState;
  /** The machine as last seen, when the caller has just read it: saves one request. */
  current?: ApiMachine;
  /** Multiplies every polling delay (default 1). */
  pollScale?: number;
  /** Clock for elapsed time in progress lines. */
  now?: () => number;
  /**
   * False: only wait, never start or stop (adoption takes a machine as it is). A machine at rest
   * in the other power state then fails the settle instead.
   */
  act?: boolean;
  /**
   * The account's shared watcher (machineWatcher.ts): waits share its listings instead of each
   * polling its machine. Without it, the leg polls alone (`client.machines.waitFor`).
   */
  watcher?: { waitFor: MachineWatcher["waitFor"] };
}

/** Legs are bounded: start → ready, or stop → off, after at most one transition to finish. */
const MAX_LEGS = 4;
/** No provisioning has finished sooner than this: the first poll of a provisioning wait. */
export const PROVISIONING_FIRST_POLL_MS = 30_000;
/** The first poll after an action or a read: the state cannot have moved on in less. */
export const NEXT_POLL_MS = 1_000;
const POLL_CAP_MS = 10_000;

/** While a leg waits, a line at least this often, so a long provisioning is visibly alive. */
export const HEARTBEAT_MS = 20_000;

/**
 * The machine did not come to rest in the declared state within the leg budget (someone or
 * something keeps moving it). Carries the id and the state it was last seen in, so the caller can
 * record a partial failure and the next `up` carries on.
 */
export class SettleError extends Error {
  readonly machineId: string;
  readonly state: string;

  constructor(message: string, machineId: string, state: string) {
    super(message);
    this.name = "SettleError";
    this.machineId = machineId;
    this.state = state;
  }
}

/**
 * Waits (and starts or stops) until the machine is in `target`; returns it with events. Never
 * returns a machine in another state: out of legs, it throws `SettleError`.
 */
export async function settleMachine(
  client: VmApiClient,
  id: string,
  target: PowerState,
  options: SettleOptions,
): Promise<ApiMachine> {
  const now = options.now ?? Date.now;
  const started = now();
  const say = (what: string) =>
    options.progress(`machine ${options.label} (${id}): ${what} (${formatElapsed(now() - started)})`);
  let machine = options.current ?? (await client.machines.get(id));
  for (let leg = 0; leg < MAX_LEGS; leg++) {
    if (machine.state === target) return machine;
    const next = await nextLeg(client, machine, target, options.provisionsTo ?? "ready", options.act ?? true);
    say(`${machine.state}, waiting for ${next}`);
    machine = await waitLeg(client, machine, next, options.timeoutMs - (now() - started), options, say);
  }
  if (machine.state === target) return machine;
  throw new SettleError(
    `machine ${options.label} (${id}) is ${machine.state}, not ${target}, after ${MAX_LEGS} waits; something else keeps changing its power state`,
    id,
    machine.state,
  );
}

/** One leg: polls until `next`, reporting each change and a heartbeat while nothing changes. */
async function waitLeg(
  client: VmApiClient,
  from: ApiMachine,
  next: WaitableState,
  remainingMs: number,
  options: SettleOptions,
  say: (what: string) => void,
): Promise<ApiMachine> {
  const scale = options.pollScale ?? 1;
  let last: string = from.state;
  const heartbeat = setInterval(() => notify(say, `still ${last}, waiting for ${next}`), HEARTBEAT_MS);
  heartbeat.unref();
  try {
    const waitOptions = {
      timeoutMs: Math.max(remainingMs, 1),
      firstPollDelayMs: (from.state === "provisioning" ? PROVISIONING_FIRST_POLL_MS : NEXT_POLL_MS) * scale,
      pollPolicy: { initialDelayMs: NEXT_POLL_MS * scale, maxDelayMs: POLL_CAP_MS * scale },
      // Errors the machine had before this leg (e.g. a failed start of an earlier up) are old news.
      baseline: from,
      onProgress: (p: { state: string }) => {
        if (p.state === last) return; // already said
        last = p.state;
        say(p.state === next ? `${p.state}` : `${p.state}, waiting for ${next}`);
      },
    };
    return await (options.watcher
      ? options.watcher.waitFor(client, from.id, next, waitOptions)
      : client.machines.waitFor(from.id, next, waitOptions));
  } finally {
    clearInterval(heartbeat);
  }
}

/** Acts if the machine rests in the other state, and says which state to wait for next. */
async function nextLeg(
  client: VmApiClient,
  machine: ApiMachine,
  target: PowerState,
  provisionsTo: PowerState,
  act: boolean,
): Promise<WaitableState> {
  const refuse = (action: string) => {
    const why = `machine ${machine.id} is ${machine.state}: reaching ${target} needs a ${action}, which this operation may not do`;
    throw new SettleError(why, machine.id, machine.state);
  };
  switch (machine.state) {
    case "off":
      if (target === "ready") await (act ? client.machines.start(machine.id) : refuse("start"));
      return target;
    case "ready":
    case "serviceready":
      if (target === "off") {
        await (act ? client.machines.stop(machine.id) : refuse("stop"));
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
