/**
 * Scoping: another account's ids answer 404, lists show only the caller's (or team's) resources,
 * and a delegation token reaches only its machines until it expires.
 */
import { DELEGATION_LIFETIME_MS } from "../../../src/contract/constants";
import { Api, createBody, SEEDED, startFixture, useFixture } from "./api";

const fx = useFixture();

describe("scoping", () => {
  beforeEach(() => fx.emu.control.reset());

  it("ids of another account: every id-taking endpoint → 404 naming the id", async () => {
    const teamMachine = (
      await fx.admin.post<{ id: string }>(
        "/machines/createSingleMachinePublic",
        createBody({ teamId: SEEDED.team, userId: SEEDED.admin }),
      )
    ).body.id;
    const teamScript = (
      await fx.admin.post<{ id: string }>("/scripts/createScript", { scriptName: "t", scriptText: "x" })
    ).body.id;
    const other = fx.individual;
    const answers = await Promise.all([
      other.get("/machines/getMachinePublic", { machineId: teamMachine }),
      other.get("/machines/getUtilization", { machineId: teamMachine, billingMonth: "2026-01" }),
      other.post(`/machines/${teamMachine}/start`),
      other.post(`/machines/${teamMachine}/stop`),
      other.post(`/machines/${teamMachine}/restart`),
      other.post(`/machines/${teamMachine}/destroyMachine`),
      other.post(`/machines/${teamMachine}/updateMachinePublic`, { machineName: "x" }),
      other.post(`/machines/${teamMachine}/setMachineAccess`, {
        userId: SEEDED.individualUser,
        enableAccess: true,
      }),
      other.post("/resourceDelegations/create", { machine: { ids: [teamMachine] } }),
      other.get("/scripts/getScript", { scriptId: teamScript }),
      other.get("/scripts/getScriptText", { scriptId: teamScript }),
      other.post(`/scripts/${teamScript}/destroy`),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.text).toMatch(new RegExp(`(machineId ${teamMachine}|scriptId ${teamScript}) not found`));
    }
  });

  it("lists: individual sees only its own, team callers see the team's", async () => {
    await fx.individual.post("/machines/createSingleMachinePublic", createBody({ machineName: "mine" }));
    await fx.admin.post(
      "/machines/createSingleMachinePublic",
      createBody({ machineName: "team", teamId: SEEDED.team, userId: SEEDED.member }),
    );
    const names = async (api: Api) =>
      (await api.get<{ name: string }[]>("/machines/getMachines")).body.map((m) => m.name);
    expect(await names(fx.individual)).toEqual(["mine"]);
    expect(await names(fx.admin)).toEqual(["team"]);
    expect(await names(fx.member)).toEqual(["team"]);
    const users = async (api: Api) =>
      (await api.get<{ id: string }[]>("/users/getUsers")).body.map((u) => u.id).sort();
    expect(await users(fx.individual)).toEqual([SEEDED.individualUser]);
    expect(await users(fx.member)).toEqual([SEEDED.admin, SEEDED.member].sort());
    const templates = async (api: Api) =>
      (await api.get<{ id: string }[]>("/templates/getTemplates")).body.map((t) => t.id);
    expect(await templates(fx.individual)).not.toContain(SEEDED.teamTemplate);
    expect(await templates(fx.member)).toContain(SEEDED.teamTemplate);
    const networks = async (api: Api) =>
      (await api.get<{ teamId: string | null }[]>("/networks/getNetworks")).body;
    expect((await networks(fx.individual)).map((n) => n.teamId)).toEqual([null, null, null]);
    expect((await networks(fx.admin)).map((n) => n.teamId)).toEqual([SEEDED.team, SEEDED.team, SEEDED.team]);
  });

  it("delegation token: a machine it does not list → 403; another endpoint → 403; after 4 h → 401 expired", async () => {
    const mk = async (name: string) =>
      (
        await fx.individual.post<{ id: string }>(
          "/machines/createSingleMachinePublic",
          createBody({ machineName: name }),
        )
      ).body.id;
    const [listed, unlisted] = [await mk("a"), await mk("b")];
    const token = (
      await fx.individual.post<{ accessTokenId: string; dtCreated: string }>("/resourceDelegations/create", {
        machine: { ids: [listed] },
      })
    ).body;
    const d = fx.individual.as(token.accessTokenId);
    expect((await d.get("/machines/getMachinePublic", { machineId: listed })).status).toBe(200);
    expect((await d.get("/machines/getMachinePublic", { machineId: unlisted })).status).toBe(403);
    expect((await d.get("/machines/getMachines")).status).toBe(403);
    fx.emu.advance(DELEGATION_LIFETIME_MS - 1);
    expect((await d.get("/machines/getMachinePublic", { machineId: listed })).status).toBe(200);
    fx.emu.advance(1);
    const expired = await d.get<{ error: { code: string; message: string } }>("/machines/getMachinePublic", {
      machineId: listed,
    });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe("invalid_api_key");
    expect(expired.body.error.message).toMatch(/expired/);
  });
});

describe("delegation lifetime under a time scale", () => {
  it("delegation token at time scale 0.01 → works for 144 s (4 h × 0.01), then 401; the dump says expired", async () => {
    const scaled = await startFixture({ timeScale: 0.01 });
    try {
      const machine = (
        await scaled.individual.post<{ id: string }>("/machines/createSingleMachinePublic", createBody())
      ).body.id;
      const token = (
        await scaled.individual.post<{ accessTokenId: string }>("/resourceDelegations/create", {
          machine: { ids: [machine] },
        })
      ).body.accessTokenId;
      const d = scaled.individual.as(token);
      const lifetime = DELEGATION_LIFETIME_MS * 0.01;
      scaled.emu.advance(lifetime - 1);
      expect((await d.get("/machines/getMachinePublic", { machineId: machine })).status).toBe(200);
      scaled.emu.advance(1);
      const expired = await d.get<{ error: { message: string } }>("/machines/getMachinePublic", {
        machineId: machine,
      });
      expect(expired.status).toBe(401);
      expect(expired.body.error.message).toBe("delegation token expired at 2026-01-15T09:02:24.000Z");
      const dump = await scaled.emu.control.state();
      expect(dump.delegations.map((x) => x.expired)).toEqual([true]);
    } finally {
      await scaled.close();
    }
  });
});
