/**
 * POST /machines/createSingleMachinePublic: every rule of docs/api.md's "Creating a machine" and
 * "Accounts, keys and who may do what", checked before anything changes, so a refused request
 * leaves no trace.
 */
import { templateTypeViolation } from "../../contract/constants";
import { NEW_USER_FIELDS, type CreateMachineRequestSchema } from "../../contract/requestSchemas";
import type { Machine } from "../../contract/schemas";
import { badRequest, conflict, notFound } from "./apiError";
import { seesNetwork, seesScript, seesTemplate } from "./scope";
import type { MachineRecord, NetworkRecord, Stored, TemplateRecord, UserRecord } from "../state/records";
import { drawCapacityFailure } from "./capacity";
import type { Store } from "../state/store";
import { staticIp } from "./lifecycleEffects";
import { machineView } from "./views";
import type { z } from "zod";

/** A machine to create, as parsed from the request body. */
export type CreateMachineArgs = z.output<typeof CreateMachineRequestSchema>;

/** The machine's user: an existing one, or one to create once every check has passed. */
type OwnerPlan = { existing: Stored<UserRecord> } | { create: Omit<UserRecord, "id" | "dtCreated"> };

/** Creates a machine in `provisioning` for account admin `admin`; returns its wire object. */
export function createMachine(store: Store, admin: Stored<UserRecord>, req: CreateMachineArgs): Machine {
  const plan = ownerPlan(store, admin, req);
  const template = store.templates.find((t) => t.id === req.templateId && seesTemplate(admin, t));
  if (template === undefined) throw notFound(`templateId ${req.templateId} not found`);
  const violation = templateTypeViolation(template.os, req.machineType);
  if (violation !== null) throw badRequest(violation);
  const network = chooseNetwork(store, admin, req);
  if (
    req.scriptId !== undefined &&
    !store.scripts.some((s) => s.id === req.scriptId && seesScript(admin, s))
  ) {
    throw notFound(`scriptId ${req.scriptId} not found`);
  }
  const owner = "existing" in plan ? plan.existing : addUser(store, plan.create);
  const now = store.now();
  const machine = store.machines.add(newMachine(store, req, { owner, network, template }, now));
  const boot = req.startOnCreate !== false;
  const failWith = boot ? drawCapacityFailure(store, machine) : null;
  store.machines.begin(machine, "create", "provisioning", { boot, failWith }, now);
  return machineView(machine);
}

function ownerPlan(store: Store, admin: Stored<UserRecord>, req: CreateMachineArgs): OwnerPlan {
  const newUser = NEW_USER_FIELDS.some((f) => req[f] !== undefined);
  if (admin.teamId === null) {
    if (req.teamId !== undefined) throw notFound(`teamId ${req.teamId} not found`);
    if (newUser) {
      throw badRequest(
        "new users (email, password, firstName, lastName) can only be created on a team account",
      );
    }
    if (req.userId !== undefined && req.userId !== admin.id) throw notFound(`userId ${req.userId} not found`);
    return { existing: admin };
  }
  if (req.teamId === undefined) {
    throw badRequest(
      `teamId is required when a team administrator creates a machine (your team: ${admin.teamId})`,
    );
  }
  if (req.teamId !== admin.teamId) throw notFound(`teamId ${req.teamId} not found`);
  if (req.userId !== undefined) {
    const user = store.users.find((u) => u.id === req.userId && u.teamId === admin.teamId);
    if (user === undefined) throw notFound(`userId ${req.userId} not found`);
    return { existing: user };
  }
  if (!newUser) {
    throw badRequest(
      "a team administrator must name the machine's user: userId, or email, password, firstName and lastName of a new team user",
    );
  }
  const email = req.email as string;
  if (store.users.some((u) => u.email.toLowerCase() === email.toLowerCase())) {
    throw conflict(`a user with email ${email} already exists`);
  }
  // The password is checked by the schema and then dropped: it is never stored, returned or logged.
  return {
    create: {
      email,
      firstname: req.firstName as string,
      lastname: req.lastName as string,
      teamId: admin.teamId,
      role: "member",
      apiKey: null,
    },
  };
}

function addUser(store: Store, fields: Omit<UserRecord, "id" | "dtCreated">): Stored<UserRecord> {
  return store.users.add({ id: store.newId("u"), dtCreated: store.now(), ...fields });
}

function chooseNetwork(
  store: Store,
  user: Stored<UserRecord>,
  req: CreateMachineArgs,
): Stored<NetworkRecord> | null {
  const mine = store.networks.all().filter((n) => seesNetwork(user, n));
  if (req.networkId === undefined) {
    // The region's first network with a free address; a full one refuses only when all are.
    const inRegion = mine.filter((n) => n.region === req.region);
    return checkRoom(inRegion.find((n) => n.lastHost < 254) ?? inRegion[0] ?? null);
  }
  const network = mine.find((n) => n.id === req.networkId);
  if (network === undefined) throw notFound(`networkId ${req.networkId} not found`);
  if (network.region !== req.region) {
    throw badRequest(`networkId ${network.id} is in region ${network.region}, not ${req.region}`);
  }
  return checkRoom(network);
}

/** Checked before anything changes, so a full network refuses without side effects. */
function checkRoom(network: Stored<NetworkRecord> | null): Stored<NetworkRecord> | null {
  if (network !== null && network.lastHost >= 254) {
    throw conflict(`network ${network.id} has no free private addresses`);
  }
  return network;
}

/** The network's next private address (from .10 up); checkRoom made sure there is one. */
function privateAddress(store: Store, network: Stored<NetworkRecord> | null): string | null {
  if (network === null) return null;
  const host = store.networks.change(network, (n) => (n.lastHost += 1));
  return network.network.replace(/\.0$/, `.${host}`);
}

/** Where a new machine goes: its user, its network (none only with a custom seed), its template. */
interface Placement {
  owner: Stored<UserRecord>;
  network: Stored<NetworkRecord> | null;
  template: Stored<TemplateRecord>;
}

function newMachine(store: Store, req: CreateMachineArgs, where: Placement, now: number): MachineRecord {
  const { owner, network, template } = where;
  return {
    id: store.newId("ps"),
    internalId: store.nextCounter("internalId"),
    name: req.machineName,
    machineType: req.machineType,
    size: req.size,
    billingType: req.billingType,
    templateId: template.id,
    os: template.os,
    agentType: template.agentType,
    region: req.region,
    networkId: network?.id ?? null,
    privateIpAddress: privateAddress(store, network),
    staticPublicIp: req.assignPublicIp === true ? staticIp(store.nextCounter("staticIp")) : null,
    dynamicPublicIp: null,
    dynamicPublicIpEnabled: req.dynamicPublicIp === true,
    userId: owner.id,
    teamId: owner.teamId,
    scriptId: req.scriptId ?? null,
    dtLastRun: null,
    dtCreated: now,
    dtDestroyed: null,
    // The service's defaults, for each setting the body leaves out.
    shutdownTimeoutInHours: req.shutdownTimeoutInHours ?? 1,
    shutdownTimeoutForces: false,
    performAutoSnapshot: req.performAutoSnapshot ?? false,
    autoSnapshotFrequency: req.autoSnapshotFrequency ?? null,
    autoSnapshotSaveCount: req.autoSnapshotSaveCount ?? null,
    restorePointSnapshotId: req.markSnapshotAsRestorePoint === true ? store.newId("s") : null,
    restorePointFrequency: req.restorePointFrequency ?? null,
    takeInitialSnapshot: req.takeInitialSnapshot === true,
    accessUserIds: [],
    // The create's operation (createMachine) enters provisioning and records it in the history.
    state: "provisioning",
    stateSince: now,
    history: [],
    pending: null,
    bootCount: 0,
    runs: [],
    events: [],
  };
}
