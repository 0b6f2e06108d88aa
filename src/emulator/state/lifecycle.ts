/**
 * The machine lifecycle as data (docs/api.md, "Machine states"): how long each timed state
 * lasts and what follows it, and which operation is allowed from which state. Nothing here runs
 * on a timer: `advanceLifecycle` replays the table up to the clock's now whenever a machine is read.
 */
import type { MachineState } from "../../contract/constants";
import type { EventRecord, MachineRecord, PendingOperation, Stored } from "./records";

/** What a timed state turns into: a boot (ready, or serviceready first for headless agents), off or ready. */
export type LifecycleNext = "boot" | "bootOrOff" | "ready" | "off";

/** One timed state: it ends `durationMs` (times the time scale) after it began. */
export interface LifecycleRow {
  durationMs: number;
  next: LifecycleNext;
}

/**
 * Timed states. `off` and `ready` are absent: they last until an operation. `serviceready` is only
 * entered by LinuxHeadless agents. `upgrading` has a row but nothing in the API triggers it.
 */
export const LIFECYCLE: Readonly<Partial<Record<MachineState, LifecycleRow>>> = {
  provisioning: { durationMs: 60_000, next: "bootOrOff" },
  starting: { durationMs: 30_000, next: "boot" },
  restarting: { durationMs: 45_000, next: "boot" },
  serviceready: { durationMs: 20_000, next: "ready" },
  stopping: { durationMs: 15_000, next: "off" },
  upgrading: { durationMs: 120_000, next: "boot" },
};

/** The operations a caller can trigger on an existing machine. */
export type MachineOperation = "start" | "stop" | "restart";

/**
 * From-state → outcome per operation: a new state (with a new event) or `noop`. A state absent
 * from a row means the operation is impossible there (409 conflict).
 */
export const OPERATIONS: Readonly<
  Record<MachineOperation, Readonly<Partial<Record<MachineState, MachineState | "noop">>>>
> = {
  start: { off: "starting", starting: "noop", serviceready: "noop", ready: "noop" },
  stop: { ready: "stopping", serviceready: "stopping", stopping: "noop", off: "noop" },
  // A restart while restarting is "a further restart": the restart begins again from now.
  restart: { ready: "restarting", serviceready: "restarting", restarting: "restarting" },
};

/** Side effects of the table (scripts, IPs, billing): model/lifecycleEffects.ts, handed to the store. */
export interface LifecycleEffects {
  /** The machine has booted at `at` (enters serviceready or ready). */
  onBoot(machine: MachineRecord, at: number): void;
  /** The machine has reached off at `at` after running. */
  onOff(machine: MachineRecord, at: number): void;
}

/**
 * Moves `machine` through every timed state that has ended by `now`, applying each step at the
 * instant it happened (not at `now`), so timestamps are the same whenever the machine is read.
 * Returns true when anything changed.
 */
export function advanceLifecycle(
  machine: MachineRecord,
  now: number,
  timeScale: number,
  effects: LifecycleEffects,
): boolean {
  let changed = false;
  for (;;) {
    const end = stateEndsAt(machine, timeScale);
    if (end === null || end > now) return changed;
    step(machine, LIFECYCLE[machine.state]!.next, end, effects);
    changed = true;
  }
}

/** When the machine's current state ends by itself (epoch ms); null for a state that lasts until an operation. */
export function stateEndsAt(machine: Stored<MachineRecord>, timeScale: number): number | null {
  const row = LIFECYCLE[machine.state];
  return row === undefined ? null : machine.stateSince + Math.round(row.durationMs * timeScale);
}

function step(machine: MachineRecord, next: LifecycleNext, at: number, effects: LifecycleEffects): void {
  if (next === "bootOrOff") next = machine.pending?.boot ? "boot" : "off";
  if (next === "off") {
    const wasRunning = machine.state !== "provisioning";
    enter(machine, "off", at);
    if (wasRunning) effects.onOff(machine, at);
    finishPendingEvent(machine, at);
  } else if (next === "ready") {
    enter(machine, "ready", at);
    finishPendingEvent(machine, at);
  } else if (machine.pending?.failWith) {
    // A boot that drew a capacity failure never runs: it ends off with an error event.
    enter(machine, "off", at);
    finishPendingEvent(machine, at);
  } else {
    effects.onBoot(machine, at);
    if (machine.agentType === "LinuxHeadless") {
      enter(machine, "serviceready", at);
    } else {
      enter(machine, "ready", at);
      finishPendingEvent(machine, at);
    }
  }
}

/** How many state changes a machine keeps: its history is bounded however long it lives. */
export const HISTORY_LIMIT = 50;

/** Sets the state and when it began, and adds the step to the machine's bounded history. */
export function enter(machine: MachineRecord, state: MachineState, at: number): void {
  machine.state = state;
  machine.stateSince = at;
  const history = (machine.history ??= []);
  history.push({ state, at });
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
}

/** An operation that begins: the event it adds, the state it enters, how it ends (`PendingOperation`). */
export interface OperationStart {
  event: string;
  /** The new event's handle (random, drawn by the store). */
  handle: string;
  state: MachineState;
  boot: boolean;
  failWith: string | null;
}

/**
 * Begins an operation at `at`: the one in flight finishes, a pending event is added (newest
 * first), and the machine enters the operation's state until the table moves it on.
 */
export function beginOperation(machine: MachineRecord, start: OperationStart, at: number): void {
  finishPendingEvent(machine, at);
  const event: EventRecord = {
    name: start.event,
    state: "pending",
    errorMsg: "",
    handle: start.handle,
    dtCreated: at,
    dtModified: at,
    dtFinished: null,
  };
  machine.events.unshift(event);
  const pending: PendingOperation = { eventHandle: event.handle, boot: start.boot, failWith: start.failWith };
  machine.pending = pending;
  enter(machine, start.state, at);
}

/**
 * Ends the operation in flight: its event becomes `done`, or `error` with the failure message.
 * Called when the operation completes and when a new operation supersedes it.
 */
export function finishPendingEvent(machine: MachineRecord, at: number): void {
  const pending = machine.pending;
  if (pending === null) return;
  const event = machine.events.find((e) => e.handle === pending.eventHandle);
  if (event !== undefined) {
    event.state = pending.failWith ? "error" : "done";
    event.errorMsg = pending.failWith ?? "";
    event.dtModified = at;
    event.dtFinished = at;
  }
  machine.pending = null;
}
