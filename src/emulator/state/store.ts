/**
 * The in-memory state and the machinery every service shares: the clock, the seeded random
 * source, the time scale, and machine reads that advance the lifecycle to now first. Business rules
 * live in model/ (the per-resource services, and the lifecycle's effects the store is handed),
 * not here and not in routes.
 */
import type { Clock } from "./clock";
import { advanceLifecycle, type LifecycleEffects } from "./lifecycle";
import type { EventRecord, MachineRecord, StoreData } from "./records";
import { SeededRandom } from "./random";

/** The emulator's state plus the injected clock, random source and time scale. */
export class Store {
  /**
   * Set by every request that changed state since the last save; the server persists before
   * answering. A lifecycle step that a read merely observes does not set it: the step is
   * recomputed from the stored timestamps after a restart, so reads never write the store.
   */
  dirty = false;

  private readonly effects: LifecycleEffects;

  /** `effectsOf` gives what a boot or a stop does beyond the state change (model/lifecycleEffects.ts). */
  constructor(
    public data: StoreData,
    readonly clock: Clock,
    public random: SeededRandom,
    readonly timeScale: number,
    effectsOf: (store: Store) => LifecycleEffects,
  ) {
    this.effects = effectsOf(this);
  }

  /** The emulator's current time. */
  now(): number {
    return this.clock.now();
  }

  /** Replaces everything (reset, or loading a state file). */
  replace(data: StoreData, random: SeededRandom): void {
    this.data = data;
    this.random = random;
    this.dirty = true;
  }

  /** A machine that is not destroyed, its lifecycle advanced to now; undefined when unknown. */
  machine(id: string): MachineRecord | undefined {
    const machine = this.data.machines.find((m) => m.id === id && m.dtDestroyed === null);
    if (machine !== undefined) this.advanceLifecycle(machine);
    return machine;
  }

  /** Every machine that is not destroyed, its lifecycle advanced to now, in creation order. */
  liveMachines(): MachineRecord[] {
    const live = this.data.machines.filter((m) => m.dtDestroyed === null);
    live.forEach((m) => this.advanceLifecycle(m));
    return live;
  }

  /** Advances every live machine's lifecycle to now (for the state dump). */
  advanceAllLifecycles(): void {
    this.liveMachines();
  }

  /** Whether `value` is an account's API key or a delegation token (to keep it out of logs). */
  isSecret(value: string): boolean {
    return (
      this.data.users.some((u) => u.apiKey === value) ||
      this.data.delegations.some((d) => d.accessTokenId === value)
    );
  }

  /** A fresh random id with `prefix`, unique among every id the store holds. */
  newId(prefix: string): string {
    const d = this.data;
    const all = [d.teams, d.users, d.networks, d.templates, d.machines, d.scripts];
    return this.random.id(prefix, (id) => all.some((list) => list.some((r) => r.id === id)));
  }

  /** The next per-store counter value (internalId, delegation id, static IP number). */
  nextCounter(name: keyof StoreData["counters"]): number {
    this.data.counters[name] += 1;
    return this.data.counters[name];
  }

  /** Adds a pending event (newest first) and returns it. */
  addEvent(machine: MachineRecord, name: string, at: number): EventRecord {
    const event: EventRecord = {
      name,
      state: "pending",
      errorMsg: "",
      handle: this.random.chars(16),
      dtCreated: at,
      dtModified: at,
      dtFinished: null,
    };
    machine.events.unshift(event);
    return event;
  }

  private advanceLifecycle(machine: MachineRecord): void {
    advanceLifecycle(machine, this.now(), this.timeScale, this.effects);
  }
}
