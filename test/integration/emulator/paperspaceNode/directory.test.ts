/**
 * paperspace-node 0.2.4's `users`, `networks`, `templates` and `resourceDelegations` methods,
 * unchanged, against the emulator; what the emulator answers to the client's methods for other
 * services (Gradient jobs, API-token login); and that every method of the client is covered.
 */
import { z } from "zod";
import {
  NetworkListSchema,
  NetworkSchema,
  ResourceDelegationSchema,
  TemplateListSchema,
  UserListSchema,
} from "../../../../src/contract/schemas";
import { DELEGATION_LIFETIME_MS } from "../../../../src/contract/constants";
import { DEFAULT_SEED } from "../../../../src/emulator/state/defaultSeed";
import { expectHttpError, expectOk, LOCAL_ONLY, useClientFixture } from "./harness";
import { SEEDED } from "../../../kit/seeded";
import { MACHINE_BASICS } from "../../../kit/machines";

/** The default seed plus a private template of the individual user (none seeded has a user or region). */
const SEED = {
  ...DEFAULT_SEED,
  templates: [
    ...DEFAULT_SEED.templates,
    {
      id: "tjane001",
      name: "jane/tjane001",
      label: "Jane's CUDA image",
      os: "Ubuntu 22.04 Desktop",
      agentType: "LinuxDesktop",
      dtCreated: "2025-09-01T08:00:00.000Z",
      userId: SEEDED.individualUser,
      region: "East Coast (NY2)",
    },
  ],
};

const fx = useClientFixture({ seed: SEED });

const ids = (list: { id: string }[]) => list.map((x) => x.id);

async function machine(key?: string, extra: Record<string, unknown> = {}): Promise<string> {
  const create = {
    ...MACHINE_BASICS,
    machineName: "delegated",
    templateId: SEEDED.desktopTemplate,
  };
  return expectOk(await fx.call<{ id: string }>("machines.create", { ...create, ...extra }, key)).id;
}

/** Methods of the client for services other than this API, called with the arguments they need. */
const OTHER_SERVICES: readonly [string, Record<string, unknown>][] = [
  ["jobs.list", { project: "demo" }],
  ["jobs.show", { jobId: "j123abc" }],
  ["jobs.machineTypes", {}],
  ["jobs.stop", { jobId: "j123abc" }],
  ["jobs.destroy", { jobId: "j123abc" }],
  ["jobs.clone", { jobId: "j123abc" }],
  ["jobs.artifactsList", { jobId: "j123abc" }],
  ["jobs.artifactsGet", { jobId: "j123abc" }],
  ["jobs.artifactsDestroy", { jobId: "j123abc" }],
  ["jobs.waitfor", { jobId: "j123abc", state: "Running" }],
  ["login.user", {}],
];
/** Not called: jobs.create zips and uploads the working directory; jobs.logs keeps polling after an error. */
const NOT_CALLED = ["jobs.create", "jobs.logs", ...LOCAL_ONLY];

describe("paperspace-node users, networks, templates", () => {
  it("users.list: → the account's users; filters by email and by teamId 'null'; an unknown filter → 400", async () => {
    expect(ids(UserListSchema.parse(expectOk(await fx.call("users.list"))))).toEqual([SEEDED.individualUser]);
    const team = UserListSchema.parse(
      expectOk(await fx.call("users.list", undefined, fx.emu.keys.teamAdmin)),
    );
    expect(ids(team)).toEqual([SEEDED.admin, SEEDED.member]);
    const byEmail = await fx.call("users.list", { email: "max@acme.example" }, fx.emu.keys.teamMember);
    expect(ids(UserListSchema.parse(expectOk(byEmail)))).toEqual([SEEDED.member]);
    expect(ids(UserListSchema.parse(expectOk(await fx.call("users.list", { teamId: null }))))).toEqual([
      SEEDED.individualUser,
    ]);
    expectHttpError(await fx.call("users.list", { role: "admin" }), 400, "validation_failed");
  });

  it("networks.list: → the account's networks; filters by region and netmask", async () => {
    expect(ids(NetworkListSchema.parse(expectOk(await fx.call("networks.list"))))).toEqual([
      SEEDED.individualCa1Network,
      SEEDED.individualNy2Network,
      SEEDED.individualAms1Network,
    ]);
    const ny2 = await fx.call("networks.list", { region: "East Coast (NY2)", netmask: "255.255.255.0" });
    expect(z.array(NetworkSchema.strict()).parse(expectOk(ny2))).toEqual([
      expect.objectContaining({ id: SEEDED.individualNy2Network, network: "10.64.2.0", teamId: null }),
    ]);
    const team = await fx.call("networks.list", { region: "Europe (AMS1)" }, fx.emu.keys.teamAdmin);
    expect(ids(NetworkListSchema.parse(expectOk(team)))).toEqual([SEEDED.teamAms1Network]);
  });

  it("templates.list: → public templates plus the account's own; filters by os and teamId", async () => {
    expect(ids(TemplateListSchema.parse(expectOk(await fx.call("templates.list"))))).toEqual([
      SEEDED.desktopTemplate,
      SEEDED.headlessTemplate,
      SEEDED.windowsTemplate,
      "tjane001",
    ]);
    const windows = await fx.call("templates.list", { os: "Windows 10" });
    expect(ids(TemplateListSchema.parse(expectOk(windows)))).toEqual([SEEDED.windowsTemplate]);
    const acme = await fx.call("templates.list", { teamId: SEEDED.team }, fx.emu.keys.teamAdmin);
    expect(TemplateListSchema.parse(expectOk(acme))).toEqual([
      expect.objectContaining({ id: SEEDED.teamTemplate, name: "acme/tacme001" }),
    ]);
  });

  const team = DEFAULT_SEED.keys.teamAdmin;
  it.each([
    ["users.list", "id", team, SEEDED.member, [SEEDED.member], SEEDED.individualUser],
    ["users.list", "firstname", team, "Ada", [SEEDED.admin], "Jane"],
    ["users.list", "lastname", team, "Member", [SEEDED.member], "Doe"],
    [
      "users.list",
      "dtCreated",
      team,
      "2025-06-01T12:00:00.000Z",
      [SEEDED.admin, SEEDED.member],
      "2026-01-15T09:00:00.000Z",
    ],
    [
      "templates.list",
      "id",
      undefined,
      SEEDED.windowsTemplate,
      [SEEDED.windowsTemplate],
      SEEDED.teamTemplate,
    ],
    ["templates.list", "name", undefined, "jane/tjane001", ["tjane001"], "acme/tacme001"],
    [
      "templates.list",
      "label",
      undefined,
      "Ubuntu 22.04 Server (ML-in-a-Box)",
      [SEEDED.headlessTemplate],
      "Acme build agent",
    ],
    ["templates.list", "region", undefined, "East Coast (NY2)", ["tjane001"], "Europe (AMS1)"],
    ["templates.list", "userId", undefined, SEEDED.individualUser, ["tjane001"], SEEDED.admin],
    [
      "networks.list",
      "id",
      undefined,
      SEEDED.individualAms1Network,
      [SEEDED.individualAms1Network],
      SEEDED.teamAms1Network,
    ],
    [
      "networks.list",
      "name",
      undefined,
      "Jane West Coast (CA1)",
      [SEEDED.individualCa1Network],
      "Acme West Coast (CA1)",
    ],
    [
      "networks.list",
      "teamId",
      team,
      SEEDED.team,
      [SEEDED.teamCa1Network, SEEDED.teamNy2Network, SEEDED.teamAms1Network],
      null,
    ],
  ] as const)(
    "%s: filter %s → exactly the matching items; a value matching none → []",
    async (method, filter, key, value, expected, none) => {
      const list = async (v: string | null) =>
        ids(
          z.array(z.object({ id: z.string() })).parse(expectOk(await fx.call(method, { [filter]: v }, key))),
        );
      expect(await list(value)).toEqual(expected);
      expect(await list(none)).toEqual([]);
    },
  );
});

describe("paperspace-node resourceDelegations", () => {
  it("resourceDelegations.create: {machine: {ids}} → the delegation; its token works as apiKey on those machines only", async () => {
    const [mine, other] = [await machine(), await machine()];
    const answer = await fx.call("resourceDelegations.create", { machine: { ids: [mine] } });
    const delegation = ResourceDelegationSchema.strict().parse(expectOk(answer));
    expect(delegation).toMatchObject({ delegation: { machine: { ids: [mine] } }, isEnabled: true });
    const token = delegation.accessTokenId;
    expect(expectOk(await fx.call<{ id: string }>("machines.show", { machineId: mine }, token)).id).toBe(
      mine,
    );
    fx.emu.advance(60_000);
    expect(expectOk(await fx.call("machines.stop", { machineId: mine }, token))).toEqual({});
    expectHttpError(await fx.call("machines.show", { machineId: other }, token), 403, "forbidden");
    expectHttpError(await fx.call("machines.list", undefined, token), 403, "forbidden");
    fx.emu.advance(DELEGATION_LIFETIME_MS);
    const expired = await fx.call("machines.show", { machineId: mine }, token);
    expect(expectHttpError(expired, 401, "invalid_api_key")).toMatch(/^delegation token expired at /);
  });

  it("resourceDelegations.create: machine as a JSON string (the CLI's form) → the same delegation", async () => {
    const id = await machine();
    const answer = await fx.call("resourceDelegations.create", { machine: JSON.stringify({ ids: [id] }) });
    expect(ResourceDelegationSchema.parse(expectOk(answer)).delegation.machine.ids).toEqual([id]);
  });

  it("resourceDelegations.create: another account's machine → 404; a team member's → 403", async () => {
    const teamMachine = await machine(fx.emu.keys.teamAdmin, { teamId: SEEDED.team, userId: SEEDED.admin });
    const answer = await fx.call("resourceDelegations.create", { machine: { ids: [teamMachine] } });
    expect(expectHttpError(answer, 404, "not_found")).toBe(`machineId ${teamMachine} not found`);
    const member = await fx.call(
      "resourceDelegations.create",
      { machine: { ids: [teamMachine] } },
      fx.emu.keys.teamMember,
    );
    expectHttpError(member, 403, "forbidden");
  });
});

describe("paperspace-node methods of other services", () => {
  it.each(OTHER_SERVICES)(
    "%s: not part of this API → 404 route_not_found with the nested body",
    async (method, params) => {
      expect(expectHttpError(await fx.call(method, params), 404, "route_not_found")).toMatch(
        /^no route for (GET|POST) \//,
      );
    },
  );

  it("coverage: every method of paperspace-node → called in this folder, or listed as not called", () => {
    const covered = new Set([...fx.called, ...NOT_CALLED]);
    const elsewhere = fx.methods().filter((m) => m.startsWith("machines.") || m.startsWith("scripts."));
    expect(fx.methods().filter((m) => !covered.has(m) && !elsewhere.includes(m))).toEqual([]);
    expect(fx.methods()).toHaveLength(38);
  });
});
