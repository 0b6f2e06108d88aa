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
import type { MachineRecord, Stored, UserRecord } from "../state/records";
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
  const failWith = op === "start" ? drawCapacityFailure(store, machine) : null;
  store.machines.begin(machine, op, outcome, { boot: op !== "stop", failWith }, store.now());
}

/** What destroyMachine is told: release a static public IP instead of keeping it reserved. */
export interface DestroyArgs {
  releasePublicIp: boolean;
}

/** Destroy: shut down at once and remove; a static IP is kept unless releasePublicIp. */
export function destroyMachine(store: Store, machine: Stored<MachineRecord>, args: DestroyArgs): void {
  const now = store.now();
  store.machines.change(machine, (m) => {
    finishPendingEvent(m, now);
    closeRuns(m, now);
    enter(m, "off", now);
    m.dynamicPublicIp = null;
    m.dtDestroyed = now;
  });
  if (machine.staticPublicIp !== null && !args.releasePublicIp) store.reservedIps.add(machine.staticPublicIp);
}

/** The fields updateMachinePublic changes; absent ones stay as they are. */
export type UpdateArgs = z.output<typeof UpdateMachineRequestSchema>;

/** updateMachinePublic: sets every field given. */
export function updateMachine(store: Store, machine: Stored<MachineRecord>, args: UpdateArgs): void {
  store.machines.change(machine, (m) => {
    if (args.machineName !== undefined) m.name = args.machineName;
    if (args.shutdownTimeoutInHours !== undefined) m.shutdownTimeoutInHours = args.shutdownTimeoutInHours;
    if (args.shutdownTimeoutForces !== undefined) m.shutdownTimeoutForces = args.shutdownTimeoutForces;
    if (args.autoSnapshotFrequency !== undefined) m.autoSnapshotFrequency = args.autoSnapshotFrequency;
    if (args.autoSnapshotSaveCount !== undefined) m.autoSnapshotSaveCount = args.autoSnapshotSaveCount;
    if (args.performAutoSnapshot !== undefined) m.performAutoSnapshot = args.performAutoSnapshot;
    // Takes effect at the next boot (assign) or the next stop (release), like the real flag.
    if (args.dynamicPublicIp !== undefined) m.dynamicPublicIpEnabled = args.dynamicPublicIp;
  });
}

/** Whose access setMachineAccess changes, and whether it is granted or revoked. */
export interface AccessArgs {
  userId: string;
  enableAccess: boolean;
}

/** setMachineAccess: adds or removes a user of `user`'s account as an accessor of `machine`. */
export function setMachineAccess(
  store: Store,
  user: Stored<UserRecord>,
  machine: Stored<MachineRecord>,
  args: AccessArgs,
): void {
  const target = store.users.find((u) => u.id === args.userId && seesUser(user, u));
  if (target === undefined) throw notFound(`userId ${args.userId} not found`);
  const others = machine.accessUserIds.filter((u) => u !== target.id);
  store.machines.change(
    machine,
    (m) => (m.accessUserIds = args.enableAccess ? [...others, target.id] : others),
  );
}

/** Which machines getMachines answers: equality filters (as strings), then a page. */
export interface ListArgs {
  filters: Filters;
  skip: number;
  limit: number;
}

/** getMachines: `user`'s (or their team's) machines, filtered, then paged by skip and limit. */
export function listMachines(store: Store, user: Stored<UserRecord>, args: ListArgs): Machine[] {
  return store.machines
    .alive()
    .filter((m) => seesMachine(user, m))
    .map((m) => machineView(m, { internalId: true }))
    .filter((view) => matchesFilters({ ...view, machineId: view.id }, args.filters))
    .slice(args.skip, args.skip + args.limit);
}

/** getMachinePublic: one machine with its events. */
export function showMachine(store: Store, caller: Caller, machineId: string): Machine {
  return machineView(machineFor(store, caller, machineId, "show"), { events: true });
}
