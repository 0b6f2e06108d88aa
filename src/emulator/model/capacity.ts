/**
 * Capacity per region and machine type: what getAvailability reports, and seeded failures that
 * make the next starts of a type in a region end `off` with an insufficient-capacity error event.
 */
import type { z } from "zod";
import type { AvailabilityQuerySchema } from "../../contract/requestSchemas";
import type { Availability } from "../../contract/schemas";
import type { CapacityRecord, MachineRecord, Stored } from "../state/records";
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
export function drawCapacityFailure(store: Store, machine: Stored<MachineRecord>): string | null {
  const entry = capacityOf(store, machine.region, machine.machineType);
  if (entry === undefined || entry.failNextStarts <= 0) return null;
  store.capacity.change(entry, (e) => (e.failNextStarts -= 1));
  return insufficientCapacityMessage(machine.machineType, machine.region);
}

/** The region and machine type getAvailability is asked about. */
export type AvailabilityArgs = z.output<typeof AvailabilityQuerySchema>;

/** GET /machines/getAvailability: a type missing from the capacity data is not offered there. */
export function getAvailability(store: Store, q: AvailabilityArgs): Availability {
  return { available: capacityOf(store, q.region, q.machineType)?.available ?? false };
}

/** Control: creates or updates the capacity entry of a region and type (a new one: unavailable, no failures). */
export function setCapacity(
  store: Store,
  change: { region: string; machineType: string; available?: boolean; failNextStarts?: number },
): CapacityRecord {
  const entry =
    capacityOf(store, change.region, change.machineType) ??
    store.capacity.add({
      region: change.region,
      machineType: change.machineType,
      available: false,
      failNextStarts: 0,
    });
  return store.capacity.change(entry, (e) => {
    if (change.available !== undefined) e.available = change.available;
    if (change.failNextStarts !== undefined) e.failNextStarts = change.failNextStarts;
    return { ...e };
  });
}

function capacityOf(store: Store, region: string, machineType: string): Stored<CapacityRecord> | undefined {
  return store.capacity.find((c) => c.region === region && c.machineType === machineType);
}
