/**
 * Waiting for a machine state: explicit, bounded, abortable, and failing fast. The polling schedule
 * is a pure function: quick at first, since starts and stops often finish in seconds, then backing
 * off to a cap, so a long provisioning costs few requests.
 */
import type { MachineState, WaitableState } from "../../../contract/constants";
import {
  MachineEventError,
  StateUnreachableError,
  ValidationError,
  WaitTimeoutError,
  type WaitErrorInit,
} from "../../core/errors";
import { formatIssues } from "../../../contract/formatIssues";
import { WaitableStateSchema } from "../../../contract/requestSchemas";
import { abortableSleep, throwIfAborted, type Timing } from "../../core/retry";
import { notify } from "../../core/notify";
import type { Machine, MachineEvent } from "../../../contract/schemas";

/** The polling schedule: `initialDelayMs · factor^n`, capped at `maxDelayMs`, ± `jitter`. */
export interface PollPolicy {
  /** The first delay between polls, in ms (> 0). */
  initialDelayMs: number;
  /** Each delay is the previous one times this (≥ 1). */
  factor: number;
  /** The longest delay between polls, in ms (≥ initialDelayMs). */
  maxDelayMs: number;
  /** Fraction (0–1) by which a delay may vary, so many waits started together spread out. */
  jitter: number;
}

/** 1 s, 2 s, 4 s, 8 s, then every 10 s: a 60 s provisioning is seen in 10 requests. */
export const DEFAULT_POLL_POLICY: Readonly<PollPolicy> = Object.freeze({
  initialDelayMs: 1_000,
  factor: 2,
  maxDelayMs: 10_000,
  jitter: 0.1,
});

/** How long a wait lasts when no `timeoutMs` is given; provisioning over 10 minutes is abnormal. */
export const DEFAULT_WAIT_TIMEOUT_MS = 15 * 60 * 1000;

/** Pure: the delay after `pollsDone` polls (≥ 1). `random` in [0, 1); 0.5 gives the exact schedule. */
export function pollDelay(pollsDone: number, policy: PollPolicy, random: () => number): number {
  const base = Math.min(
    policy.maxDelayMs,
    policy.initialDelayMs * policy.factor ** Math.max(0, pollsDone - 1),
  );
  const jittered = base * (1 + policy.jitter * (2 * random() - 1));
  return Math.round(Math.min(policy.maxDelayMs, Math.max(0, jittered)));
}

/** One state change seen by a wait. */
export interface WaitProgress {
  /** The state this poll found. */
  state: MachineState;
  /** Undefined at the first poll. */
  previousState: MachineState | undefined;
  /** Milliseconds since the wait began. */
  elapsedMs: number;
  /** The machine as this poll read it. */
  machine: Machine;
}

/** Options of `machines.waitFor`. */
export interface WaitOptions {
  /** Give up after this long (default 15 minutes) with `WaitTimeoutError`. */
  timeoutMs?: number;
  /** Abort the wait promptly with `AbortedError`. */
  signal?: AbortSignal;
  /** Called at the first poll and at each state change. */
  onProgress?: (progress: WaitProgress) => void;
  /** Overrides parts of `DEFAULT_POLL_POLICY`. */
  pollPolicy?: Partial<PollPolicy>;
  /**
   * No poll before this long: the polls the schedule places earlier are skipped, the later ones
   * keep their times. For a caller that knows the state cannot come sooner (a provisioning takes
   * about a minute) or that has just read the machine.
   */
  firstPollDelayMs?: number;
  /**
   * The machine as the caller read it before the wait began: error events it already had are
   * old news. Default: the errors present at the first poll.
   */
  baseline?: Machine;
}

/** Pure: how long to sleep before the first poll, and the index of that poll in the schedule. */
export function firstPoll(
  firstPollDelayMs: number,
  policy: PollPolicy,
  random: () => number,
): { delayMs: number; polls: number } {
  let delayMs = 0;
  let polls = 1;
  while (delayMs < firstPollDelayMs) {
    delayMs += pollDelay(polls, policy, random);
    polls++;
  }
  return { delayMs, polls };
}

/** The handles of the machine's `error` events: the errors a wait takes as old news. */
export function errorHandles(machine: Machine): Set<string> {
  return new Set((machine.events ?? []).filter((e) => e.state === "error").map((e) => e.handle));
}

/** Pure: whether `state` satisfies `target`. `ready` also satisfies `serviceready`: its services run too. */
export function stateSatisfies(state: MachineState, target: WaitableState): boolean {
  return state === target || (target === "serviceready" && state === "ready");
}

/**
 * Pure: whether the machine has settled where `target` cannot follow without an action: `off`
 * with no pending event while waiting to run. (A running machine can still turn `off` by itself,
 * through its shutdown timeout, so waiting for `off` is never judged hopeless.)
 */
export function targetUnreachable(machine: Machine, target: WaitableState): boolean {
  if (target === "off" || machine.state !== "off") return false;
  return !(machine.events ?? []).some((event) => event.state === "pending");
}

/** Pure: the first `error` event whose handle was not already in error at the first poll. */
export function newErrorEvent(
  machine: Machine,
  errorsAtStart: ReadonlySet<string>,
): MachineEvent | undefined {
  return (machine.events ?? []).find((event) => event.state === "error" && !errorsAtStart.has(event.handle));
}

/**
 * Polls `getMachine` until the machine is in `target`; returns it (with events). Throws
 * `MachineEventError`, `StateUnreachableError`, `WaitTimeoutError` (the deadline is checked
 * between polls), `AbortedError`, or the error of a poll that failed after its own retries.
 */
export async function waitForState(
  getMachine: (signal?: AbortSignal) => Promise<Machine>,
  machineId: string,
  target: WaitableState,
  options: WaitOptions,
  timing: Timing,
): Promise<Machine> {
  const parsedTarget = WaitableStateSchema.safeParse(target, { reportInput: true });
  if (!parsedTarget.success) throw new ValidationError(formatIssues(parsedTarget.error.issues.map(asState)));
  const { timeoutMs, policy, firstPollDelayMs } = checkWaitOptions(options);
  const started = timing.now();
  let errorsAtStart = options.baseline ? errorHandles(options.baseline) : undefined;
  let previousState: MachineState | undefined;
  const first = firstPoll(Math.min(firstPollDelayMs, timeoutMs), policy, timing.random);
  if (first.delayMs > 0) await abortableSleep(timing, Math.min(first.delayMs, timeoutMs), options.signal);
  for (let polls = first.polls; ; polls++) {
    throwIfAborted(options.signal);
    const machine = await getMachine(options.signal);
    errorsAtStart ??= errorHandles(machine);
    if (machine.state !== previousState) {
      notify(options.onProgress, {
        state: machine.state,
        previousState,
        elapsedMs: timing.now() - started,
        machine,
      });
      previousState = machine.state;
    }
    if (stateSatisfies(machine.state, target)) return machine;
    checkHope(machine, target, errorsAtStart);
    const remaining = started + timeoutMs - timing.now();
    if (remaining <= 0) {
      const facts = { machineId, targetState: target, lastState: machine.state };
      throw new WaitTimeoutError(
        `machine ${machineId} did not become ${target} within ${timeoutMs} ms; last state: ${machine.state}`,
        facts,
      );
    }
    await abortableSleep(
      timing,
      Math.min(pollDelay(polls, policy, timing.random), remaining),
      options.signal,
    );
  }
}

/**
 * Pure: the wait's options with defaults applied, or a `ValidationError` naming the option. Checked
 * before the first poll, as well-kept waiters do: a zero delay or a factor below 1 would poll in a
 * tight loop, and a zero timeout would give up before looking.
 */
export function checkWaitOptions(options: WaitOptions): {
  timeoutMs: number;
  policy: PollPolicy;
  firstPollDelayMs: number;
} {
  const policy = { ...DEFAULT_POLL_POLICY, ...options.pollPolicy };
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const firstPollDelayMs = options.firstPollDelayMs ?? 0;
  requireNumber("pollPolicy.initialDelayMs", policy.initialDelayMs, (v) => v > 0, "> 0");
  const minimum = `≥ pollPolicy.initialDelayMs (${policy.initialDelayMs})`;
  requireNumber("pollPolicy.maxDelayMs", policy.maxDelayMs, (v) => v >= policy.initialDelayMs, minimum);
  requireNumber("pollPolicy.factor", policy.factor, (v) => v >= 1, "≥ 1");
  requireNumber("pollPolicy.jitter", policy.jitter, (v) => v >= 0 && v <= 1, "from 0 to 1");
  requireNumber("timeoutMs", timeoutMs, (v) => v > 0, "> 0");
  requireNumber("firstPollDelayMs", firstPollDelayMs, (v) => v >= 0, "≥ 0");
  return { timeoutMs, policy, firstPollDelayMs };
}

function requireNumber(name: string, value: unknown, ok: (v: number) => boolean, rule: string): void {
  if (typeof value !== "number" || Number.isNaN(value) || !ok(value)) {
    throw new ValidationError(`${name} must be a number ${rule} (got ${String(value)})`);
  }
}

/**
 * Throws `MachineEventError` when an error event appeared since `errorsAtStart`, or
 * `StateUnreachableError` when the target cannot come without an action. Exported for the
 * provider's shared watcher, which waits with the same rules.
 */
export function checkHope(machine: Machine, target: WaitableState, errorsAtStart: ReadonlySet<string>): void {
  const facts: WaitErrorInit = { machineId: machine.id, targetState: target, lastState: machine.state };
  const failed = newErrorEvent(machine, errorsAtStart);
  if (failed) {
    throw new MachineEventError(
      `machine ${machine.id}: ${failed.name} failed: ${failed.errorMsg || "(no message)"} (waiting for ${target}; state ${machine.state})`,
      { ...facts, eventName: failed.name, errorMsg: failed.errorMsg },
    );
  }
  if (targetUnreachable(machine, target)) {
    const lastError = (machine.events ?? []).find((e) => e.state === "error");
    const why = lastError ? `; last error: ${lastError.name}: ${lastError.errorMsg}` : "";
    throw new StateUnreachableError(
      `machine ${machine.id} is off with nothing pending, so it cannot become ${target} without a start${why}`,
      facts,
    );
  }
}

/** Names the field "state" in the message rather than "body". */
function asState<T extends { path: PropertyKey[] }>(issue: T): T {
  return { ...issue, path: ["state"] };
}
