/**
 * The machines: a collection whose reads first advance each machine's lifecycle to now
 * (lifecycle.ts), so no reader ever sees a state that has already ended. Advancing is not a
 * change of the store: every step is recomputed from the stored timestamps, to the same result,
 * after a restart. Destroyed machines stay (with `dtDestroyed`) for the state dump.
 */
import type { MachineState } from "../../contract/constants";
import { Collection } from "./collection";
import { beginOperation } from "./lifecycle";
import type { MachineRecord, Stored } from "./records";

/** What the machines need of their store. */
export interface MachineCollectionParts {
  records: () => MachineRecord[];
  changed: () => void;
  /** Advances one machine's lifecycle to now. */
  advance: (machine: MachineRecord) => void;
  /** A new event handle (drawn from the store's random source). */
  newHandle: () => string;
}

/** How an operation that begins ends: boot at its end (else off), or fail with this message. */
export interface OperationPlan {
  boot: boolean;
  failWith: string | null;
}

/** Every machine the store holds. */
export class MachineCollection extends Collection<MachineRecord> {
  private readonly advance: (machine: MachineRecord) => void;
  private readonly newHandle: () => string;

  constructor(parts: MachineCollectionParts) {
    super(parts.records, parts.changed);
    this.advance = parts.advance;
    this.newHandle = parts.newHandle;
  }

  /** Every machine, destroyed ones too, the live ones advanced to now. */
  override all(): readonly Stored<MachineRecord>[] {
    const all = super.all();
    for (const machine of all) if (machine.dtDestroyed === null) this.advance(machine as MachineRecord);
    return all;
  }

  /** The machine `id` if it is not destroyed, advanced to now. */
  live(id: string): Stored<MachineRecord> | undefined {
    const machine = super.all().find((m) => m.id === id && m.dtDestroyed === null);
    if (machine !== undefined) this.advance(machine as MachineRecord);
    return machine;
  }

  /** Every machine that is not destroyed, advanced to now, oldest first. */
  alive(): Stored<MachineRecord>[] {
    return this.all().filter((m) => m.dtDestroyed === null);
  }

  /**
   * Begins an operation (create, start, stop, restart) at `at`: the one in flight finishes, a
   * pending event named `event` is added, and the machine enters `state`.
   */
  begin(
    machine: Stored<MachineRecord>,
    event: string,
    state: MachineState,
    plan: OperationPlan,
    at: number,
  ): void {
    this.change(machine, (m) => beginOperation(m, { event, state, handle: this.newHandle(), ...plan }, at));
  }
}
