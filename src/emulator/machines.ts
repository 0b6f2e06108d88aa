/**
 * Machine operations after create: start/stop/restart through the lifecycle table, destroy,
 * update, access grants, list and show. Permission checks go through the permission table.
 */
import { z } from "zod";
import {
  MACHINE_FILTER_FIELDS,
  PagingQuerySchema,
  SetMachineAccessRequestSchema,
  UpdateMachineRequestSchema,
  DestroyMachineRequestSchema,
} from "../client/requests";
import { DEFAULT_MACHINE_PAGE_SIZE } from "../client/constants";
import type { Machine } from "../client/schemas";
import { badRequest, conflict, notFound } from "./apiError";
import { accountUser, inScope, type Caller } from "./auth";
import { drawCapacityFailure } from "./capacity";
import { enter, finishPendingEvent, OPERATIONS, type MachineOperation } from "./lifecycle";
import { machineFor, machineVisible } from "./permissions";
import { closeRuns, type Store } from "./store";
import { matchesFilters, parseFilters, parseWith, queryBoolean, queryObject } from "./validate";
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

/** Destroy: shut down at once and remove; a static IP is kept unless releasePublicIp. */
export function destroyMachine(
  store: Store,
  caller: Caller,
  id: string,
  body: unknown,
  query: URLSearchParams,
): void {
  const machine = machineFor(store, caller, id, "destroy");
  const fromBody = parseWith(DestroyMachineRequestSchema, body ?? {}).releasePublicIp;
  const release = fromBody ?? queryBoolean(query, "releasePublicIp") ?? false;
  const now = store.now();
  finishPendingEvent(machine, now);
  closeRuns(machine, now);
  enter(machine, "off", now);
  machine.dynamicPublicIp = null;
  if (machine.staticPublicIp !== null && !release) store.data.reservedIps.push(machine.staticPublicIp);
  machine.dtDestroyed = now;
  store.dirty = true;
}

/** updateMachinePublic: every field optional; unknown fields ignored. */
export function updateMachine(store: Store, caller: Caller, id: string, body: unknown): void {
  const machine = machineFor(store, caller, id, "update");
  const req = parseWith(UpdateMachineRequestSchema, body ?? {});
  if (req.machineName !== undefined) machine.name = req.machineName;
  if (req.shutdownTimeoutInHours !== undefined) machine.shutdownTimeoutInHours = req.shutdownTimeoutInHours;
  if (req.shutdownTimeoutForces !== undefined) machine.shutdownTimeoutForces = req.shutdownTimeoutForces;
  if (req.autoSnapshotFrequency !== undefined) machine.autoSnapshotFrequency = req.autoSnapshotFrequency;
  if (req.autoSnapshotSaveCount !== undefined) machine.autoSnapshotSaveCount = req.autoSnapshotSaveCount;
  if (req.performAutoSnapshot !== undefined) machine.performAutoSnapshot = req.performAutoSnapshot;
  // Takes effect at the next boot (assign) or the next stop (release), like the real flag.
  if (req.dynamicPublicIp !== undefined) machine.dynamicPublicIpEnabled = req.dynamicPublicIp;
  store.dirty = true;
}

/** setMachineAccess: adds or removes a user of the machine's account as an accessor. */
export function setMachineAccess(store: Store, caller: Caller, id: string, body: unknown): void {
  const machine = machineFor(store, caller, id, "setAccess");
  const req = parseWith(SetMachineAccessRequestSchema, body ?? {});
  if (req.machineId !== undefined && req.machineId !== id) {
    throw badRequest(`machineId in the body (${req.machineId}) does not match the path (${id})`);
  }
  const user = accountUser(caller, "set machine access");
  const target = store.data.users.find(
    (u) => u.id === req.userId && inScope(user, { teamId: u.teamId, userId: u.id }),
  );
  if (target === undefined) throw notFound(`userId ${req.userId} not found`);
  const others = machine.accessUserIds.filter((u) => u !== target.id);
  machine.accessUserIds = req.enableAccess ? [...others, target.id] : others;
  store.dirty = true;
}

/** getMachines: the caller's (or team's) machines, filtered, then paged by skip and limit. */
export function listMachines(store: Store, caller: Caller, query: URLSearchParams): Machine[] {
  const user = accountUser(caller, "list machines");
  const filters = parseFilters(query, MACHINE_FILTER_FIELDS, ["limit", "skip"]);
  const paging = parseWith(PagingQuerySchema, {
    limit: query.get("limit") ?? undefined,
    skip: query.get("skip") ?? undefined,
  });
  const skip = paging.skip ?? 0;
  return store
    .liveMachines()
    .filter((m) => machineVisible(user, m))
    .map((m) => machineView(m, { internalId: true }))
    .filter((view) => matchesFilters({ ...view, machineId: view.id }, filters))
    .slice(skip, skip + (paging.limit ?? DEFAULT_MACHINE_PAGE_SIZE));
}

const MachineIdQuerySchema = z.object({ machineId: z.string().min(1) });

/** getMachinePublic: one machine with its events. */
export function showMachine(store: Store, caller: Caller, query: URLSearchParams): Machine {
  const { machineId } = parseWith(MachineIdQuerySchema, queryObject(query));
  return machineView(machineFor(store, caller, machineId, "show"), { events: true });
}
