/**
 * List endpoints: every documented equality filter (compared as strings, "null" matching null),
 * unknown query parameters, and limit/skip paging of getMachines. Responses parse with the
 * shared wire schemas.
 */
import {
  MACHINE_FILTER_FIELDS,
  NETWORK_FILTER_FIELDS,
  SCRIPT_FILTER_FIELDS,
  TEMPLATE_FILTER_FIELDS,
  USER_FILTER_FIELDS,
} from "../../../src/contract/listFilters";
import {
  MachineListSchema,
  NetworkListSchema,
  ScriptListSchema,
  TemplateListSchema,
  UserListSchema,
} from "../../../src/contract/schemas";
import type { z } from "zod";
import { Api, createBody, SEEDED, useFixture } from "./api";

const fx = useFixture();
beforeAll(async () => {
  const make = (o: Record<string, unknown>) =>
    fx.individual.post("/machines/createSingleMachinePublic", createBody(o));
  await make({ machineName: "a", dynamicPublicIp: true });
  await make({
    machineName: "b",
    machineType: "C5",
    templateId: SEEDED.headlessTemplate,
    startOnCreate: false,
  });
  fx.emu.advance(60_000);
  await make({ machineName: "c", region: "Europe (AMS1)", machineType: "P5000" });
  await fx.individual.post("/scripts/createScript", { scriptName: "one", scriptText: "a", runOnce: true });
  await fx.individual.post("/scripts/createScript", {
    scriptName: "two",
    scriptText: "b",
    scriptDescription: "d",
  });
  await fx.admin.post(
    "/machines/createSingleMachinePublic",
    createBody({ teamId: SEEDED.team, userId: SEEDED.member }),
  );
});

const asFilter = (value: unknown): string => (value === null || value === undefined ? "null" : String(value));

/** For every field and every distinct value in the list, the filter returns exactly the matching items. */
async function expectEveryFilterExact(
  api: Api,
  path: string,
  schema: z.ZodType<Record<string, unknown>[]>,
  fields: readonly string[],
  fieldOf: (filter: string) => string = (f) => f,
): Promise<number> {
  const all = schema.parse((await api.get(path)).body);
  expect(all.length).toBeGreaterThan(0);
  let checked = 0;
  for (const field of fields) {
    const values = new Set(all.map((item) => asFilter(item[fieldOf(field)])));
    for (const value of [...values, "no-such-value"]) {
      const res = await api.get(path, { [field]: value });
      expect(res.status).toBe(200);
      const got = schema.parse(res.body).map((x) => x.id);
      expect({ field, value, got }).toEqual({
        field,
        value,
        got: all.filter((item) => asFilter(item[fieldOf(field)]) === value).map((x) => x.id),
      });
      checked += 1;
    }
  }
  return checked;
}

describe("filters", () => {
  it("getMachines: every filter field → exactly the machines whose value matches as a string", async () => {
    const n = await expectEveryFilterExact(
      fx.individual,
      "/machines/getMachines",
      MachineListSchema,
      MACHINE_FILTER_FIELDS,
      (f) => (f === "machineId" ? "id" : f),
    );
    expect(n).toBeGreaterThan(MACHINE_FILTER_FIELDS.length);
  });

  it("getMachines: state filter → only machines in that state; 'null' → machines with a null field", async () => {
    const off = MachineListSchema.parse(
      (await fx.individual.get("/machines/getMachines", { state: "off" })).body,
    );
    expect(off.map((m) => m.name)).toEqual(["b"]);
    const noIp = MachineListSchema.parse(
      (await fx.individual.get("/machines/getMachines", { publicIpAddress: "null" })).body,
    );
    expect(noIp.map((m) => m.name).sort()).toEqual(["b", "c"]);
  });

  it("getScripts: every filter field → exactly the matching scripts", async () => {
    await expectEveryFilterExact(
      fx.individual,
      "/scripts/getScripts",
      ScriptListSchema,
      SCRIPT_FILTER_FIELDS,
    );
  });

  it("getUsers: every filter field → exactly the matching users", async () => {
    await expectEveryFilterExact(fx.admin, "/users/getUsers", UserListSchema, USER_FILTER_FIELDS);
    await expectEveryFilterExact(fx.individual, "/users/getUsers", UserListSchema, USER_FILTER_FIELDS);
  });

  it("getNetworks: every filter field → exactly the matching networks", async () => {
    await expectEveryFilterExact(fx.admin, "/networks/getNetworks", NetworkListSchema, NETWORK_FILTER_FIELDS);
  });

  it("getTemplates: every filter field → exactly the matching templates", async () => {
    await expectEveryFilterExact(
      fx.admin,
      "/templates/getTemplates",
      TemplateListSchema,
      TEMPLATE_FILTER_FIELDS,
    );
  });

  it.each([
    ["/machines/getMachines", "id", "machineId"],
    ["/scripts/getScripts", "scriptId", "id"],
    ["/users/getUsers", "userId", "id"],
    ["/networks/getNetworks", "foo", "netmask"],
    ["/templates/getTemplates", "bar", "region"],
  ])(
    "%s: unknown query parameter %s → 400 naming it and listing the allowed ones",
    async (path, param, allowed) => {
      const res = await fx.individual.get<{ error: { message: string; code: string } }>(path, {
        [param]: "x",
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
      expect(res.body.error.message).toMatch(
        new RegExp(`^unknown query parameter ${param}; allowed: .*\\b${allowed}\\b`),
      );
    },
  );

  it("templates: public ones carry os and label and names like paperspace/t…", async () => {
    const templates = TemplateListSchema.parse((await fx.individual.get("/templates/getTemplates")).body);
    expect(templates.map((t) => t.os)).toEqual(
      expect.arrayContaining(["Ubuntu 22.04 Desktop", "Ubuntu 22.04 Server", "Windows 10"]),
    );
    for (const t of templates) expect(t.name).toMatch(/^paperspace\/t[0-9a-z]+$/);
  });
});

describe("paging", () => {
  let api: Api;
  beforeAll(async () => {
    api = fx.admin;
    for (let i = 0; i < 4; i++) {
      await api.post(
        "/machines/createSingleMachinePublic",
        createBody({ teamId: SEEDED.team, userId: SEEDED.admin, machineName: `p${i}` }),
      );
    }
  });
  const names = async (query: Record<string, string | number>) =>
    MachineListSchema.parse((await api.get("/machines/getMachines", query)).body).map((m) => m.internalId);

  it("getMachines: limit and skip → the requested page, in creation order", async () => {
    const all = await names({});
    expect(all).toHaveLength(5);
    expect(await names({ limit: 2 })).toEqual(all.slice(0, 2));
    expect(await names({ limit: 2, skip: 2 })).toEqual(all.slice(2, 4));
    expect(await names({ limit: 2, skip: 4 })).toEqual(all.slice(4));
    expect(await names({ limit: 1000, skip: 5 })).toEqual([]);
  });

  it("getMachines: internalId in lists → a per-store counter", async () => {
    const ids = await names({});
    expect(ids.every((id) => typeof id === "number")).toBe(true);
    expect([...ids].sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(ids);
  });

  it.each([
    [{ limit: 0 }, "limit"],
    [{ limit: 1001 }, "limit"],
    [{ limit: "ten" }, "limit"],
    [{ skip: -1 }, "skip"],
  ])("getMachines: %j → 400 naming the parameter", async (query, field) => {
    const res = await api.get<{ error: { message: string } }>("/machines/getMachines", query);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
  });
});
