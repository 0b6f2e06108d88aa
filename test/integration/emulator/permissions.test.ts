/**
 * The permission matrix, generated: every operation × every kind of caller → expected status,
 * with the emulator state unchanged whenever the answer is a refusal. The expectations are
 * written out here (docs/api.md "Accounts, keys and who may do what" plus docs/emulator.md), not
 * derived from the code.
 */
import { DEFAULT_SEED } from "../../../src/emulator";
import { DELEGATION_LIFETIME_MS } from "../../../src/contract/constants";
import { stateWithoutCounts } from "../../kit/emulator";
import { Api, createBody, SEEDED, useFixture, type Answer } from "./api";

const OWNER = { id: "uownr001", key: "dev-owner-key" };
const seed = {
  ...DEFAULT_SEED,
  users: [
    ...DEFAULT_SEED.users,
    {
      id: OWNER.id,
      email: "olga@acme.example",
      firstname: "Olga",
      lastname: "Owner",
      dtCreated: "2025-06-01T12:00:00.000Z",
      teamId: SEEDED.team,
      role: "member" as const,
      apiKey: OWNER.key,
    },
  ],
};

type Role =
  | "owner"
  | "teamAdmin"
  | "teamMember"
  | "otherAccount"
  | "delegation"
  | "expiredDelegation"
  | "noKey"
  | "badKey";
const ROLES: Role[] = [
  "owner",
  "teamAdmin",
  "teamMember",
  "otherAccount",
  "delegation",
  "expiredDelegation",
  "noKey",
  "badKey",
];

interface Setup {
  machineId: string;
  keys: Record<Role, string | null>;
}

interface MachineCase {
  name: string;
  /** The machine must be off (start) rather than ready. */
  off?: boolean;
  run(api: Api, s: Setup): Promise<Answer>;
  expect: Record<Exclude<Role, "noKey" | "badKey" | "expiredDelegation">, number>;
}

const all200 = { owner: 200, teamAdmin: 200, teamMember: 200, otherAccount: 404, delegation: 200 };
const ownerOnly = { owner: 204, teamAdmin: 403, teamMember: 403, otherAccount: 404, delegation: 204 };
const ownerOrAdmin = { owner: 204, teamAdmin: 204, teamMember: 403, otherAccount: 404, delegation: 403 };

const MACHINE_CASES: MachineCase[] = [
  {
    name: "show",
    run: (a, s) => a.get("/machines/getMachinePublic", { machineId: s.machineId }),
    expect: all200,
  },
  {
    name: "utilization",
    run: (a, s) => a.get("/machines/getUtilization", { machineId: s.machineId, billingMonth: "2026-01" }),
    expect: all200,
  },
  { name: "start", off: true, run: (a, s) => a.post(`/machines/${s.machineId}/start`), expect: ownerOnly },
  { name: "stop", run: (a, s) => a.post(`/machines/${s.machineId}/stop`), expect: ownerOnly },
  { name: "restart", run: (a, s) => a.post(`/machines/${s.machineId}/restart`), expect: ownerOnly },
  {
    name: "update",
    run: (a, s) => a.post(`/machines/${s.machineId}/updateMachinePublic`, { machineName: "renamed" }),
    expect: ownerOrAdmin,
  },
  {
    name: "destroy",
    run: (a, s) => a.post(`/machines/${s.machineId}/destroyMachine`, { releasePublicIp: true }),
    expect: ownerOrAdmin,
  },
  {
    name: "setMachineAccess",
    run: (a, s) =>
      a.post(`/machines/${s.machineId}/setMachineAccess`, { userId: SEEDED.member, enableAccess: true }),
    expect: ownerOrAdmin,
  },
  {
    name: "createScript attached to the machine",
    run: (a, s) =>
      a.post("/scripts/createScript", { scriptName: "boot", scriptText: "echo hi", machineId: s.machineId }),
    // Only account administrators create scripts, so the owner (a team member) is refused too.
    expect: { owner: 403, teamAdmin: 200, teamMember: 403, otherAccount: 404, delegation: 403 },
  },
  {
    name: "createDelegation for the machine",
    run: (a, s) => a.post("/resourceDelegations/create", { machine: { ids: [s.machineId] } }),
    expect: { owner: 200, teamAdmin: 200, teamMember: 403, otherAccount: 404, delegation: 403 },
  },
];

const fx = useFixture({ seed });

/** Reset; a team machine owned by OWNER (ready, or off); an expired and a valid delegation for it. */
async function setup(off: boolean): Promise<Setup> {
  await fx.emu.control.reset();
  const created = await fx.admin.post<{ id: string }>(
    "/machines/createSingleMachinePublic",
    createBody({ teamId: SEEDED.team, userId: OWNER.id, startOnCreate: !off }),
  );
  expect(created.status).toBe(200);
  const machineId = created.body.id;
  const delegate = async () =>
    (
      await fx.admin.post<{ accessTokenId: string }>("/resourceDelegations/create", {
        machine: { ids: [machineId] },
      })
    ).body.accessTokenId;
  const expired = await delegate();
  fx.emu.advance(DELEGATION_LIFETIME_MS);
  const valid = await delegate();
  const keys: Record<Role, string | null> = {
    owner: OWNER.key,
    teamAdmin: fx.emu.keys.teamAdmin,
    teamMember: fx.emu.keys.teamMember,
    otherAccount: fx.emu.keys.individual,
    delegation: valid,
    expiredDelegation: expired,
    noKey: null,
    badKey: "not-a-key",
  };
  return { machineId, keys };
}

/** The dump without what every request changes (counts) — everything a refusal must not touch. */
const snapshot = () => stateWithoutCounts(fx.emu.control);

/** The status a machine case answers `role` with: a caller without a valid key gets 401 whatever it asks. */
function machineStatus(c: MachineCase, role: Role): number {
  if (role === "noKey" || role === "badKey" || role === "expiredDelegation") return 401;
  return c.expect[role as keyof MachineCase["expect"]];
}

describe("machine operations × callers", () => {
  const cases = MACHINE_CASES.flatMap((c) =>
    ROLES.map((role) => [c.name, role, machineStatus(c, role), c] as const),
  );

  it.each(cases.filter(([, , status]) => status < 400))(
    "%s: caller %s → %i",
    async (_name, role, status, c) => {
      const s = await setup(c.off === true);
      const answer = await c.run(new Api(fx.emu.url, s.keys[role]), s);
      expect(answer.status).toBe(status);
    },
  );

  it.each(cases.filter(([, , status]) => status >= 400))(
    "%s: caller %s → %i, the body says so, state unchanged",
    async (_name, role, status, c) => {
      const s = await setup(c.off === true);
      const before = await snapshot();
      const answer = await c.run(new Api(fx.emu.url, s.keys[role]), s);
      expect(answer.status).toBe(status);
      expect((answer.body as { error: { status: number } }).error.status).toBe(status);
      expect(answer.text).toMatch(role === "expiredDelegation" ? /expired/ : /"error"/);
      expect(await snapshot()).toEqual(before);
    },
  );
});

type AccountRole = "individual" | "teamAdmin" | "teamMember" | "delegation" | "expiredDelegation" | "noKey";
const ACCOUNT_ROLES: AccountRole[] = [
  "individual",
  "teamAdmin",
  "teamMember",
  "delegation",
  "expiredDelegation",
  "noKey",
];

interface AccountCase {
  name: string;
  run(api: Api, role: AccountRole, ids: { script: Record<string, string> }): Promise<Answer>;
  expect: [individual: number, teamAdmin: number, teamMember: number];
}

const isTeam = (role: AccountRole) => role !== "individual";
const reads = [200, 200, 200] as [number, number, number];

const ACCOUNT_CASES: AccountCase[] = [
  {
    name: "createMachine",
    run: (a, role) =>
      a.post(
        "/machines/createSingleMachinePublic",
        createBody(isTeam(role) ? { teamId: SEEDED.team, userId: SEEDED.member } : {}),
      ),
    expect: [200, 200, 403],
  },
  { name: "getMachines", run: (a) => a.get("/machines/getMachines"), expect: reads },
  { name: "getUsers", run: (a) => a.get("/users/getUsers"), expect: reads },
  { name: "getNetworks", run: (a) => a.get("/networks/getNetworks"), expect: reads },
  { name: "getTemplates", run: (a) => a.get("/templates/getTemplates"), expect: reads },
  { name: "getScripts", run: (a) => a.get("/scripts/getScripts"), expect: reads },
  {
    name: "getAvailability",
    run: (a) => a.get("/machines/getAvailability", { region: "East Coast (NY2)", machineType: "P5000" }),
    expect: reads,
  },
  {
    name: "getScript",
    run: (a, role, ids) =>
      a.get("/scripts/getScript", { scriptId: ids.script[isTeam(role) ? "team" : "individual"] }),
    expect: reads,
  },
  {
    name: "getScriptText",
    run: (a, role, ids) =>
      a.get("/scripts/getScriptText", { scriptId: ids.script[isTeam(role) ? "team" : "individual"] }),
    expect: reads,
  },
  {
    name: "createScript",
    run: (a) => a.post("/scripts/createScript", { scriptName: "another", scriptText: "echo 2" }),
    expect: [200, 200, 403],
  },
  {
    name: "destroyScript",
    run: (a, role, ids) => a.post(`/scripts/${ids.script[isTeam(role) ? "team" : "individual"]}/destroy`),
    expect: [204, 204, 403],
  },
  {
    name: "createDelegation without machines",
    run: (a) => a.post("/resourceDelegations/create", {}),
    expect: reads,
  },
];

describe("account operations × callers", () => {
  const cases = ACCOUNT_CASES.flatMap((c) => ACCOUNT_ROLES.map((role) => [c.name, role, c] as const));
  const status = (c: AccountCase, role: AccountRole): number =>
    ({ delegation: 403, expiredDelegation: 401, noKey: 401 })[role as string] ??
    c.expect[ACCOUNT_ROLES.indexOf(role)];
  const statused = cases.map(([name, role, c]) => [name, role, status(c, role), c] as const);

  it.each(statused.filter(([, , s]) => s < 400))("%s: caller %s → %i", async (_name, role, expected, c) => {
    const { keys, script } = await accountWorld();
    const answer = await c.run(new Api(fx.emu.url, keys[role]), role, { script });
    expect(answer.status).toBe(expected);
  });

  it.each(statused.filter(([, , s]) => s >= 400))(
    "%s: caller %s → %i, state unchanged",
    async (_name, role, expected, c) => {
      const { keys, script } = await accountWorld();
      const before = await snapshot();
      const answer = await c.run(new Api(fx.emu.url, keys[role]), role, { script });
      expect(answer.status).toBe(expected);
      expect(await snapshot()).toEqual(before);
    },
  );
});

/** A fresh emulator with a script per account, a team machine, and a key for every account role. */
async function accountWorld(): Promise<{
  keys: Record<AccountRole, string | null>;
  script: Record<string, string>;
}> {
  await fx.emu.control.reset();
  const script = {
    individual: (
      await fx.individual.post<{ id: string }>("/scripts/createScript", {
        scriptName: "s",
        scriptText: "x",
      })
    ).body.id,
    team: (await fx.admin.post<{ id: string }>("/scripts/createScript", { scriptName: "s", scriptText: "x" }))
      .body.id,
  };
  const machine = await fx.admin.post<{ id: string }>(
    "/machines/createSingleMachinePublic",
    createBody({ teamId: SEEDED.team, userId: SEEDED.member }),
  );
  const token = async () =>
    (
      await fx.admin.post<{ accessTokenId: string }>("/resourceDelegations/create", {
        machine: { ids: [machine.body.id] },
      })
    ).body.accessTokenId;
  const expired = await token();
  fx.emu.advance(DELEGATION_LIFETIME_MS + 1);
  const keys: Record<AccountRole, string | null> = {
    individual: fx.emu.keys.individual,
    teamAdmin: fx.emu.keys.teamAdmin,
    teamMember: fx.emu.keys.teamMember,
    delegation: await token(),
    expiredDelegation: expired,
    noKey: null,
  };
  return { keys, script };
}
