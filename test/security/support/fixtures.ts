/**
 * One valid answer per client call, written to the contract (src/contract/schemas.ts) with every
 * optional part present (events, script machines, internalId), so that decorating or drifting
 * any node of it exercises every level of the response schemas.
 */
import type { VmApiClient } from "../../../src/client/client";
import { MACHINE_BASICS } from "../../kit/machines";

const T = "2026-01-15T09:00:00.000Z";

const event = (name: string, handle: string) => ({
  name,
  state: "done",
  errorMsg: "",
  handle,
  dtCreated: T,
  dtModified: T,
  dtFinished: T,
});

export const MACHINE = {
  id: "ps1234567",
  name: "m",
  os: "Ubuntu 22.04 Server",
  ram: "8589934592",
  cpus: 4,
  gpu: null,
  storageTotal: "53687091200",
  storageUsed: "12884901888",
  machineType: "C4",
  usageRate: "C4 hourly",
  shutdownTimeoutInHours: 1,
  shutdownTimeoutForces: false,
  performAutoSnapshot: false,
  autoSnapshotFrequency: "day",
  autoSnapshotSaveCount: null,
  dynamicPublicIp: false,
  agentType: "LinuxHeadless",
  dtCreated: T,
  state: "ready",
  updatesPending: false,
  networkId: "n1",
  privateIpAddress: "10.0.0.10",
  publicIpAddress: null,
  region: "East Coast (NY2)",
  scriptId: "sc1",
  dtLastRun: T,
  restorePointSnapshotId: null,
  restorePointFrequency: null,
  userId: "u1",
  teamId: null,
};

const SCRIPT = {
  id: "sc1",
  ownerType: "user",
  ownerId: "u1",
  name: "boot",
  description: null,
  dtCreated: T,
  isEnabled: true,
  runOnce: false,
};

const DELEGATION = {
  id: 3,
  delegation: { machine: { ids: ["ps1234567", "ps7654321"] } },
  isEnabled: true,
  accessTokenId: "tok0123456789",
  dtCreated: T,
};

/** A client call, the route it uses, and the body a well-behaved server answers. */
export interface Call {
  name: string;
  route: string;
  /** The answer on the wire. */
  body: unknown;
  /** What the client resolves with (the body as parsed; differs for the array delegation). */
  parsed?: unknown;
  run(client: VmApiClient): Promise<unknown>;
}

export const CALLS: readonly Call[] = [
  {
    name: "machines.get",
    route: "GET /machines/getMachinePublic",
    body: { ...MACHINE, events: [event("start", "h2"), event("create", "h1")] },
    run: (c) => c.machines.get("ps1234567"),
  },
  {
    name: "machines.list",
    route: "GET /machines/getMachines",
    body: [
      { ...MACHINE, internalId: 1 },
      { ...MACHINE, id: "ps7654321", internalId: 2 },
    ],
    run: (c) => c.machines.list(),
  },
  {
    name: "machines.create",
    route: "POST /machines/createSingleMachinePublic",
    body: { ...MACHINE, state: "provisioning" },
    run: (c) =>
      c.machines.create({
        ...MACHINE_BASICS,
        machineName: "m",
        templateId: "t1",
      }),
  },
  {
    name: "machines.utilization",
    route: "GET /machines/getUtilization",
    body: {
      machineId: "ps1234567",
      utilization: { machineId: "ps1234567", secondsUsed: 60, hourlyRate: "0.036", billingMonth: "2026-01" },
      storageUtilization: {
        machineId: "ps1234567",
        secondsUsed: 90,
        monthlyRate: "5.00",
        billingMonth: "2026-01",
      },
    },
    run: (c) => c.machines.utilization("ps1234567", "2026-01"),
  },
  {
    name: "machines.availability",
    route: "GET /machines/getAvailability",
    body: { available: true },
    run: (c) => c.machines.availability("East Coast (NY2)", "P5000"),
  },
  {
    name: "scripts.get",
    route: "GET /scripts/getScript",
    body: { ...SCRIPT, machines: [{ machineId: "ps1234567", machineName: "m", dtLastRun: null }] },
    run: (c) => c.scripts.get("sc1"),
  },
  { name: "scripts.list", route: "GET /scripts/getScripts", body: [SCRIPT], run: (c) => c.scripts.list() },
  {
    name: "scripts.create",
    route: "POST /scripts/createScript",
    body: SCRIPT,
    run: (c) => c.scripts.create({ scriptName: "boot", scriptText: "echo" }),
  },
  {
    name: "users.list",
    route: "GET /users/getUsers",
    body: [{ id: "u1", email: "a@b.c", firstname: "A", lastname: "B", dtCreated: T, teamId: null }],
    run: (c) => c.users.list(),
  },
  {
    name: "networks.list",
    route: "GET /networks/getNetworks",
    body: [
      {
        id: "n1",
        name: "net",
        region: "East Coast (NY2)",
        dtCreated: T,
        network: "10.0.0.0",
        netmask: "255.255.255.0",
        teamId: "te1",
      },
    ],
    run: (c) => c.networks.list(),
  },
  {
    name: "templates.list",
    route: "GET /templates/getTemplates",
    body: [
      {
        id: "t1",
        name: "paperspace/t1",
        label: "L",
        os: "Ubuntu",
        dtCreated: T,
        teamId: null,
        userId: null,
        region: null,
      },
    ],
    run: (c) => c.templates.list(),
  },
  {
    name: "resourceDelegations.create (object)",
    route: "POST /resourceDelegations/create",
    body: DELEGATION,
    run: (c) => c.resourceDelegations.create({ machine: { ids: ["ps1234567"] } }),
  },
  {
    name: "resourceDelegations.create (one-element array)",
    route: "POST /resourceDelegations/create",
    body: [DELEGATION],
    parsed: DELEGATION,
    run: (c) => c.resourceDelegations.create({ machine: { ids: ["ps1234567"] } }),
  },
];
