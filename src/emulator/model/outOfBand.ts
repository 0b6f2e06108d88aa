/**
 * What happens to a machine outside every program that manages it: its owner stops it or renames
 * it from the service's own page. The control endpoints (`POST /_emulator/machines/...`) and the
 * console do this to show what `pulumi refresh` finds. The change goes through the API's own
 * rules, acting as the machine's owner: the lifecycle table decides a stop (a 409 where the API
 * would answer one), and a rename is an update of the name alone.
 */
import { notFound } from "./apiError";
import { asCaller } from "./auth";
import { operateMachine, updateMachine } from "./machines";
import type { MachineRecord, Stored, UserRecord } from "../state/records";
import type { Store } from "../state/store";

/** Stops a live machine as its owner would. */
export function stopOutOfBand(store: Store, machineId: string): void {
  const owner = ownerOf(store, liveMachine(store, machineId));
  operateMachine(store, asCaller(owner), machineId, "stop");
}

/** Renames a live machine as its owner would (the name already checked by the caller's schema). */
export function renameOutOfBand(store: Store, machineId: string, machineName: string): void {
  updateMachine(store, liveMachine(store, machineId), { machineName });
}

function liveMachine(store: Store, machineId: string): Stored<MachineRecord> {
  const machine = store.machines.live(machineId);
  if (machine === undefined) throw notFound(`machineId ${machineId} not found`);
  return machine;
}

function ownerOf(store: Store, machine: Stored<MachineRecord>): Stored<UserRecord> {
  const owner = store.users.find((u) => u.id === machine.userId);
  if (owner === undefined) throw notFound(`the owner of machine ${machine.id} is not found`);
  return owner;
}
