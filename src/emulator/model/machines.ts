/**
 * Machine operations after create: start/stop/restart through the lifecycle table, destroy,
 * update, access grants, list and show. They take parsed, typed arguments (routes.ts parses the
 * wire); a machine named by the caller is looked up through the permission table.
 */
import type { z } from "zod";
import type { UpdateMachineRequestSchema } from "../../contract/requestSchemas";
import type { Machine } from "../../contract/schemas";
import { conflict, notFound } from "./apiError";
import type { Caller } from "./auth";
import { drawCapacityFailure } from "./capacity";
import { enter, finishPendingEvent, OPERATIONS, type MachineOperation } from "../state/lifecycle";
import { machineFor } from "./permissions";
import { seesMachine, seesUser } from "./scope";
import type { MachineRecord, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import { closeRuns } from "./lifecycleEffects";
import { matchesFilters, type Filters } from "./filters";
import { machineView } from "./views";

const CONFLICT_HINTS: Partial<Record<string, string>> = {
  provisioning: "; wait until provisioning has finished",
  stopping: "; wait until it is off",
  starting: "; wait until it is ready",
  restarting: "; wait until it is ready",
  off: "; start it instead",
};

/** start, stop or restart: the OPERATIONS table decides (new state, no-op, or 409). */
export function operateMachine(store: Store, caller: Caller, id: string, op: MachineOperation): void {
  const machine = machineFor(store, caller, id, op);
  const outcome = OPERATIONS[op][machine.state];
  if (outcome === undefined) {
    throw conflict(
      `cannot ${op} machine ${id} while it is ${machine.state}${CONFLICT_HINTS[machine.state] ?? ""}`,
    );
  }
  if (outcome === "noop") return;
  const now = store.now();
  finishPendingEvent(machine, now);
  const event = store.addEvent(machine, op, now);
  const failWith = op === "start" ? drawCapacityFailure(store, machine) : null;
  machine.pending = { eventHandle: event.handle, boot: op !== "stop", failWith };
  enter(machine, outcome, now);
  store.dirty = true;
}

/** What destroyMachine is told: release a static public IP instead of keeping it reserved. */
export interface DestroyArgs {
  releasePublicIp: boolean;
}

/** Destroy: shut down at once and remove; a static IP is kept unless releasePublicIp. */
export function destroyMachine(store: Store, machine: MachineRecord, args: DestroyArgs): void {
  const now = store.now();
  finishPendingEvent(machine, now);
  closeRuns(machine, now);
  enter(machine, "off", now);
  machine.dynamicPublicIp = null;
  if (machine.staticPublicIp !== null && !args.releasePublicIp) {
    store.data.reservedIps.push(machine.staticPublicIp);
  }
  machine.dtDestroyed = now;
  store.dirty = true;
}

/** The fields updateMachinePublic changes; absent ones stay as they are. */
export type UpdateArgs = z.output<typeof UpdateMachineRequestSchema>;

/** updateMachinePublic: sets every field given. */
export function updateMachine(store: Store, machine: MachineRecord, args: UpdateArgs): void {
  if (args.machineName !== undefined) machine.name = args.machineName;
  if (args.shutdownTimeoutInHours !== undefined) machine.shutdownTimeoutInHours = args.shutdownTimeoutInHours;
  if (args.shutdownTimeoutForces !== undefined) machine.shutdownTimeoutForces = args.shutdownTimeoutForces;
  if (args.autoSnapshotFrequency !== undefined) machine.autoSnapshotFrequency = args.autoSnapshotFrequency;
  if (args.autoSnapshotSaveCount !== undefined) machine.autoSnapshotSaveCount = args.autoSnapshotSaveCount;
  if (args.performAutoSnapshot !== undefined) machine.performAutoSnapshot = args.performAutoSnapshot;
  // Takes effect at the next boot (assign) or the next stop (release), like the real flag.
  if (args.dynamicPublicIp !== undefined) machine.dynamicPublicIpEnabled = args.dynamicPublicIp;
  store.dirty = true;
}

/** Whose access setMachineAccess changes, and whether it is granted or revoked. */
export interface AccessArgs {
  userId: string;
  enableAccess: boolean;
}

/** setMachineAccess: adds or removes a user of `user`'s account as an accessor of `machine`. */
export function setMachineAccess(
  store: Store,
  user: UserRecord,
  machine: MachineRecord,
  args: AccessArgs,
): void {
  const target = store.data.users.find((u) => u.id === args.userId && seesUser(user, u));
  if (target === undefined) throw notFound(`userId ${args.userId} not found`);
  const others = machine.accessUserIds.filter((u) => u !== target.id);
  machine.accessUserIds = args.enableAccess ? [...others, target.id] : others;
  store.dirty = true;
}

/** Which machines getMachines answers: equality filters (as strings), then a page. */
export interface ListArgs {
  filters: Filters;
  skip: number;
  limit: number;
}

/** getMachines: `user`'s (or their team's) machines, filtered, then paged by skip and limit. */
export function listMachines(store: Store, user: UserRecord, args: ListArgs): Machine[] {
  return store
    .liveMachines()
    .filter((m) => seesMachine(user, m))
    .map((m) => machineView(m, { internalId: true }))
    .filter((view) => matchesFilters({ ...view, machineId: view.id }, args.filters))
    .slice(args.skip, args.skip + args.limit);
}

/** getMachinePublic: one machine with its events. */
export function showMachine(store: Store, caller: Caller, machineId: string): Machine {
  return machineView(machineFor(store, caller, machineId, "show"), { events: true });
}
