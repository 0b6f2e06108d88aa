/**
 * One watcher per account: machines waiting to settle are not polled one by one. The watcher
 * reads the account's machines with the list endpoint (every page) when the earliest of its
 * waiters is due, and hands that one listing to every waiter, so a fleet of 200 machines settling
 * together costs one listing per interval instead of 200 shows.
 *
 * A listed machine that reached the waited state ends its wait as listed: a listing carries every
 * field a Machine reports but its events, and reaching the state is all a wait asks (an error
 * event matters only while the target is out of reach). So a fleet's waits cost their listings
 * and no show each; the machine is returned without events (`events` undefined), and its outputs
 * list none until a read of it alone (docs/resources/machine.md, "Requests per machine"). A machine is read alone (`show`)
 * only when its state calls for it: it is `off` while a start is waited for (a start that fell
 * back to `off` leaves an error event that fails the wait at once), or it is missing from the
 * listing (its own 404 fails the wait, as a poll's 404 always did). A machine waiting alone is
 * shown rather than listed: one request either way, and the show has the events. A listing that
 * fails after the client's retries falls back to one show per waiter that is due: no waiter is lost.
 *
 * A wait keeps every rule of `waitForState` (waiting.ts): its options, its schedule (each
 * waiter's own polls decide when the next listing is due; a listing serves every waiter, which
 * aligns them), the deadline checked after each observation, progress at each state change,
 * failing fast on a new error event or an unreachable target, and abort. Time and sleep are the
 * context's (`Timing`); the watcher's loop ends when no waiter is left, so it holds no timer
 * that keeps the plugin process (or jest) alive.
 */
import type { VmApiClient } from "../../client/client";
import { WAITABLE_STATES, type MachineState, type WaitableState } from "../../contract/constants";
import { AbortedError, ValidationError, WaitTimeoutError } from "../../client/core/errors";
import { abortableSleep, throwIfAborted, timingOf, type Timing } from "../../client/core/retry";
import type { Machine } from "../../contract/schemas";
import {
  checkHope,
  checkWaitOptions,
  errorHandles,
  firstPoll,
  pollDelay,
  stateSatisfies,
  type PollPolicy,
  type WaitOptions,
} from "../../client/resources/machine";
import type { Account } from "../account/account";

/** Bound on the machines one listing collects; far above any sane account. */
const MAX_LISTED = 100_000;

/** One wait registered with the watcher. */
interface Waiter {
  readonly id: string;
  readonly target: WaitableState;
  /** The client of the operation that waits: its own shows go through it. */
  readonly client: VmApiClient;
  readonly options: WaitOptions;
  readonly policy: PollPolicy;
  readonly started: number;
  readonly timeoutMs: number;
  /** Polls done on the schedule (as `waitForState` counts them). */
  polls: number;
  /** When this waiter wants its next observation. */
  dueAt: number;
  errorsAtStart: ReadonlySet<string> | undefined;
  previousState: MachineState | undefined;
  settle: (outcome: { machine: Machine } | { error: unknown }) => void;
}

/** Waits for machines of one account with one listing per interval (module comment). */
export class MachineWatcher {
  private readonly waiters = new Set<Waiter>();
  private running = false;
  /** Cuts the loop's sleep short when a waiter due sooner arrives. */
  private wake: AbortController | undefined;
  private wakeAt = Infinity;
  private lastListAt = -Infinity;
  /** Listings taken (for tests and benchmarks). */
  listings = 0;

  /**
   * @param list Every machine of the account, all pages.
   * @param timing The context's clock and sleep.
   */
  constructor(
    private readonly list: () => Promise<Machine[]>,
    private readonly timing: Timing,
  ) {}

  /** How many waits are registered now. */
  get size(): number {
    return this.waiters.size;
  }

  /**
   * Same contract as `client.machines.waitFor(id, target, options)`: resolves with the machine
   * once it is in `target` (with its events when a show saw it there; as listed, without events,
   * when a listing did); rejects with `WaitTimeoutError`,
   * `MachineEventError`, `StateUnreachableError`, `AbortedError`, or the error of its show (a
   * 404 when the machine is gone). Options are checked before anything is registered.
   */
  waitFor(
    client: VmApiClient,
    machineId: string,
    target: WaitableState,
    options: WaitOptions = {},
  ): Promise<Machine> {
    if (!(WAITABLE_STATES as readonly string[]).includes(target)) {
      throw new ValidationError(`state must be one of ${WAITABLE_STATES.join(", ")} (got ${String(target)})`);
    }
    const { timeoutMs, policy, firstPollDelayMs } = checkWaitOptions(options);
    throwIfAborted(options.signal);
    const started = this.timing.now();
    const first = firstPoll(Math.min(firstPollDelayMs, timeoutMs), policy, this.timing.random);
    return new Promise<Machine>((resolve, reject) => {
      const onAbort = () => waiter.settle({ error: new AbortedError() });
      const waiter: Waiter = {
        id: machineId,
        target,
        client,
        options,
        policy,
        started,
        timeoutMs,
        polls: first.polls,
        dueAt: started + Math.min(first.delayMs, timeoutMs),
        errorsAtStart: options.baseline ? errorHandles(options.baseline) : undefined,
        previousState: undefined,
        settle: (outcome) => {
          if (!this.waiters.delete(waiter)) return;
          options.signal?.removeEventListener("abort", onAbort);
          if ("machine" in outcome) resolve(outcome.machine);
          else reject(outcome.error);
        },
      };
      this.waiters.add(waiter);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      this.kick(waiter.dueAt);
    });
  }

  /** Starts the loop, or wakes it when `dueAt` is sooner than it planned to look. */
  private kick(dueAt: number): void {
    if (this.running) {
      if (dueAt < this.wakeAt) this.wake?.abort();
      return;
    }
    this.running = true;
    // Started after the current task, so waits registered together are served by one listing.
    queueMicrotask(() => void this.run());
  }

  private async run(): Promise<void> {
    try {
      while (this.waiters.size > 0) {
        const at = this.nextListingAt();
        const waitMs = at - this.timing.now();
        if (waitMs > 0) {
          await this.sleepUntil(at, waitMs);
          continue; // the waiters may have changed meanwhile
        }
        await this.round();
      }
    } catch (error) {
      // The loop itself failed (an injected sleep threw): no wait may hang on it.
      for (const waiter of [...this.waiters]) waiter.settle({ error });
    } finally {
      this.running = false;
    }
  }

  /**
   * The earliest due waiter decides, but never sooner than its own shortest delay after the last
   * listing: a waiter that was just served early does not make the next listing come at once.
   */
  private nextListingAt(): number {
    let due = Infinity;
    let gap = Infinity;
    for (const waiter of this.waiters) {
      due = Math.min(due, waiter.dueAt);
      gap = Math.min(gap, waiter.policy.initialDelayMs);
    }
    return Math.max(due, this.lastListAt + gap);
  }

  private async sleepUntil(at: number, ms: number): Promise<void> {
    const wake = new AbortController();
    this.wake = wake;
    this.wakeAt = at;
    try {
      await abortableSleep(this.timing, ms, wake.signal);
    } catch (err) {
      if (!(err instanceof AbortedError)) throw err;
    } finally {
      this.wake = undefined;
      this.wakeAt = Infinity;
    }
  }

  /**
   * One listing for every waiter registered before it was taken. A waiter alone is shown instead:
   * one request either way, and a show carries the events, so no second read ends its wait.
   */
  private async round(): Promise<void> {
    const batch = [...this.waiters];
    this.lastListAt = this.timing.now();
    const listed = batch.length > 1 ? await this.listed() : undefined;
    const now = this.timing.now();
    await Promise.all(batch.map((waiter) => this.serve(waiter, listed, now)));
  }

  /** The account's machines by id, or undefined when the listing failed after its retries. */
  private async listed(): Promise<Map<string, Machine> | undefined> {
    this.listings++;
    try {
      return new Map((await this.list()).map((machine) => [machine.id, machine]));
    } catch {
      return undefined; // each due waiter reads its machine alone this time
    }
  }

  /** Gives one waiter its observation: the listed machine, or its own show when that is needed. */
  private async serve(waiter: Waiter, listed: Map<string, Machine> | undefined, now: number): Promise<void> {
    if (!this.waiters.has(waiter)) return;
    if (listed === undefined && waiter.dueAt > now) return;
    const seen = listed === undefined ? undefined : asShown(listed.get(waiter.id));
    let machine: Machine;
    try {
      machine =
        seen !== undefined && !needsShow(seen, waiter.target)
          ? seen
          : await waiter.client.machines.get(waiter.id, { signal: waiter.options.signal });
      this.observe(waiter, machine);
    } catch (error) {
      waiter.settle({ error }); // its show failed (a 404 when it is gone), or its progress sink threw
    }
  }

  /** What `waitForState` does with one poll, for one waiter. */
  private observe(waiter: Waiter, machine: Machine): void {
    const now = this.timing.now();
    if (machine.events !== undefined) waiter.errorsAtStart ??= errorHandles(machine);
    if (machine.state !== waiter.previousState) {
      const previousState = waiter.previousState;
      waiter.previousState = machine.state;
      waiter.options.onProgress?.({
        state: machine.state,
        previousState,
        elapsedMs: now - waiter.started,
        machine,
      });
    }
    try {
      // There: shown, with its events, or listed (module comment).
      if (stateSatisfies(machine.state, waiter.target)) return waiter.settle({ machine });
      if (machine.events !== undefined) checkHope(machine, waiter.target, waiter.errorsAtStart ?? new Set());
    } catch (error) {
      return waiter.settle({ error });
    }
    const deadline = waiter.started + waiter.timeoutMs;
    if (now >= deadline) {
      const { id, target } = waiter;
      const facts = { machineId: id, targetState: target, lastState: machine.state };
      const message = `machine ${id} did not become ${target} within ${waiter.timeoutMs} ms; last state: ${machine.state}`;
      return waiter.settle({ error: new WaitTimeoutError(message, facts) });
    }
    waiter.dueAt = Math.min(now + pollDelay(waiter.polls, waiter.policy, this.timing.random), deadline);
    waiter.polls++;
  }
}

/**
 * Pure: whether a listed machine must be read alone: it is `off` while the wait is for it to run
 * (a start that fell back to `off` has an error event, or nothing is pending and the target is
 * out of reach). A machine that reached the target ends its wait as listed.
 */
export function needsShow(listed: Machine, target: WaitableState): boolean {
  return listed.state === "off" && target !== "off";
}

/** A listed machine as a show gives it, less its events: `internalId` comes in lists only. */
function asShown(listed: Machine | undefined): Machine | undefined {
  if (listed === undefined) return undefined;
  const { internalId: _listOnly, ...shown } = listed;
  return shown;
}

/**
 * The watcher of `account`; made on first use, listing with the account's client on its
 * context's clock. A watcher with no waiter holds nothing but its entry.
 */
export function machineWatcherFor(account: Account): MachineWatcher {
  return account.memo("machine watcher", () => {
    const list = () => account.client.machines.listAll().collect({ max: MAX_LISTED });
    return new MachineWatcher(list, timingOf(account.context.timing));
  });
}
