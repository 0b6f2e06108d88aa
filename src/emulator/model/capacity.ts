/**
 * Capacity per region and machine type: what getAvailability reports, and seeded failures that
 * make the next starts of a type in a region end `off` with an insufficient-capacity error event.
 */
import type { z } from "zod";
import type { AvailabilityQuerySchema } from "../../contract/requestSchemas";
import type { Availability } from "../../contract/schemas";
import type { CapacityRecord, MachineRecord } from "../state/records";
import type { Store } from "../state/store";

/** The message of a capacity failure event. */
export function insufficientCapacityMessage(machineType: string, region: string): string {
  return `insufficient capacity for ${machineType} in ${region}`;
}

/**
 * Consumes one pending failure for the machine's type and region. Drawn when the start is
 * requested (a mutating request, persisted) rather than when the boot happens, so the outcome
 * does not depend on the order machines happen to be read in.
 */
export function drawCapacityFailure(store: Store, machine: MachineRecord): string | null {
  const entry = store.data.capacity.find(
    (c) => c.region === machine.region && c.machineType === machine.machineType,
  );
  if (entry === undefined || entry.failNextStarts <= 0) return null;
  entry.failNextStarts -= 1;
  store.dirty = true;
  return insufficientCapacityMessage(machine.machineType, machine.region);
}

/** The region and machine type getAvailability is asked about. */
export type AvailabilityArgs = z.output<typeof AvailabilityQuerySchema>;

/** GET /machines/getAvailability: a type missing from the capacity data is not offered there. */
export function getAvailability(store: Store, q: AvailabilityArgs): Availability {
  const entry = store.data.capacity.find((c) => c.region === q.region && c.machineType === q.machineType);
  return { available: entry?.available ?? false };
}

/** Control: creates or updates the capacity entry of a region and type. */
export function setCapacity(
  store: Store,
  change: { region: string; machineType: string; available?: boolean; failNextStarts?: number },
): CapacityRecord {
  let entry = store.data.capacity.find(
    (c) => c.region === change.region && c.machineType === change.machineType,
  );
  if (entry === undefined) {
    entry = { region: change.region, machineType: change.machineType, available: false, failNextStarts: 0 };
    store.data.capacity.push(entry);
  }
  if (change.available !== undefined) entry.available = change.available;
  if (change.failNextStarts !== undefined) entry.failNextStarts = change.failNextStarts;
  store.dirty = true;
  return entry;
}
