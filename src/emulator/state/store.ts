/**
 * The emulator's state and what every service shares: the collections (each the one way to change
 * its records), the clock, the seeded random source and the time scale, the one lookup of who
 * holds a key, and the state file. The store knows when it changed: every write goes through a
 * collection's operation or one of its own, and it writes the state file only then. Business
 * rules live in model/ (the services, and the lifecycle's effects the store is handed), not here
 * and not in routes.
 */
import { ManualClock, type Clock } from "./clock";
import { Collection } from "./collection";
import { advanceLifecycle, type LifecycleEffects } from "./lifecycle";
import { MachineCollection } from "./machineCollection";
import { saveState, type PersistedState } from "./persistence";
import { SeededRandom } from "./random";
import type {
  AccessKeys,
  CapacityRecord,
  DelegationRecord,
  NetworkRecord,
  ScriptRecord,
  Stored,
  StoreData,
  TeamRecord,
  TemplateRecord,
  UserRecord,
} from "./records";
import { seedToData, type Seed } from "./seed";

/** Who holds a key: an account user, or a resource delegation (its token). */
export type KeyOwner =
  { kind: "user"; user: Stored<UserRecord> } | { kind: "delegation"; delegation: Stored<DelegationRecord> };

/**
 * What a boot or a stop does beyond the state change (model/lifecycleEffects.ts), given the
 * script a machine may run. Lifecycle steps are not changes of the store (they are recomputed
 * after a restart), so this is the one place a record is written without marking it changed.
 */
export type EffectsOf = (scriptOf: (id: string) => ScriptRecord | undefined) => LifecycleEffects;

/** How a store starts: the clock, the time scale and the lifecycle's effects. */
export interface StoreSetting {
  clock: Clock;
  timeScale: number;
  effectsOf: EffectsOf;
}

/** The emulator's state plus the injected clock, random source and time scale. */
export class Store {
  readonly teams: Collection<TeamRecord>;
  readonly users: Collection<UserRecord>;
  readonly networks: Collection<NetworkRecord>;
  readonly templates: Collection<TemplateRecord>;
  readonly machines: MachineCollection;
  readonly scripts: Collection<ScriptRecord>;
  readonly delegations: Collection<DelegationRecord>;
  readonly capacity: Collection<CapacityRecord>;
  /** Static IPs an account kept after a destroy without releasePublicIp. */
  readonly reservedIps: Collection<string>;
  readonly clock: Clock;
  readonly timeScale: number;

  private readonly effects: LifecycleEffects;

  private constructor(
    private data: StoreData,
    private random: SeededRandom,
    setting: StoreSetting,
    /** Whether anything changed since the state file was last written (or since the start). */
    private unsaved: boolean,
  ) {
    this.clock = setting.clock;
    this.timeScale = setting.timeScale;
    this.effects = setting.effectsOf((id) => this.data.scripts.find((s) => s.id === id));
    const changed = () => {
      this.unsaved = true;
    };
    const of =
      <K extends keyof StoreData>(key: K) =>
      () =>
        this.data[key];
    this.teams = new Collection(of("teams"), changed);
    this.users = new Collection(of("users"), changed);
    this.networks = new Collection(of("networks"), changed);
    this.templates = new Collection(of("templates"), changed);
    this.scripts = new Collection(of("scripts"), changed);
    this.delegations = new Collection(of("delegations"), changed);
    this.capacity = new Collection(of("capacity"), changed);
    this.reservedIps = new Collection(of("reservedIps"), changed);
    this.machines = new MachineCollection({
      records: of("machines"),
      changed,
      advance: (machine) => advanceLifecycle(machine, this.now(), this.timeScale, this.effects),
      newHandle: () => this.randomChars(16),
    });
  }

  /** A store holding `seed`'s records; unsaved, so a state file is written at once. */
  static fromSeed(seed: Seed, setting: StoreSetting): Store {
    return new Store(seedToData(seed), new SeededRandom(seed.randomSeed), setting, true);
  }

  /** A store holding what a state file held. */
  static fromSaved(saved: PersistedState, setting: StoreSetting): Store {
    return new Store(saved.data, new SeededRandom(saved.random), setting, false);
  }

  /** The emulator's current time. */
  now(): number {
    return this.clock.now();
  }

  /** Whether anything changed since the state file was last written. */
  get changed(): boolean {
    return this.unsaved;
  }

  /** Back to `seed`'s records and random sequence (a reset); the clock keeps its time. */
  resetTo(seed: Seed): void {
    this.data = seedToData(seed);
    this.random = new SeededRandom(seed.randomSeed);
    this.unsaved = true;
  }

  /** Moves the manual clock (the caller has checked the step); its now is part of the state file. */
  advanceClock(ms: number): void {
    if (!(this.clock instanceof ManualClock)) throw new Error("only a manual clock is advanced");
    this.clock.advance(ms);
    this.unsaved = true;
  }

  /** The seed's three API keys, as the ready line prints them. */
  keys(): AccessKeys {
    return { ...this.data.keys };
  }

  /** Who holds `key`: the user whose API key it is, else the delegation whose token it is. */
  keyOwner(key: string): KeyOwner | undefined {
    const user = this.users.find((u) => u.apiKey !== null && u.apiKey === key);
    if (user !== undefined) return { kind: "user", user };
    const delegation = this.delegations.find((d) => d.accessTokenId === key);
    return delegation === undefined ? undefined : { kind: "delegation", delegation };
  }

  /** A fresh random id with `prefix`, unique among every id the store holds. */
  newId(prefix: string): string {
    const d = this.data;
    const all = [d.teams, d.users, d.networks, d.templates, d.machines, d.scripts];
    const id = this.random.id(prefix, (candidate) =>
      all.some((list) => list.some((r) => r.id === candidate)),
    );
    this.unsaved = true;
    return id;
  }

  /** `length` random base36 characters (event handles, delegation tokens). */
  randomChars(length: number): string {
    this.unsaved = true;
    return this.random.chars(length);
  }

  /** The next per-store counter value (internalId, delegation id, static IP number). */
  nextCounter(name: keyof StoreData["counters"]): number {
    this.unsaved = true;
    this.data.counters[name] += 1;
    return this.data.counters[name];
  }

  /** Writes the state file when anything changed since the last write (no file: nothing to write). */
  save(stateFile: string | undefined): void {
    if (!this.unsaved) return;
    if (stateFile !== undefined) {
      saveState(stateFile, {
        version: 1,
        clockNow: this.clock.mode === "manual" ? this.clock.now() : null,
        random: this.random.state,
        data: this.data,
      });
    }
    this.unsaved = false;
  }
}
