/**
 * Every validation rule of createSingleMachinePublic: one clear error each, naming the field (and
 * the allowed values for closed sets), with the status and code of docs/emulator.md; refusals
 * change nothing.
 */
import { templateTypeViolation } from "../../../src/contract/constants";
import { NestedErrorBodySchema } from "../../../src/contract/schemas";
import { Api, createBody, SEEDED, useFixture } from "./api";

const fx = useFixture({}, { resetEach: true });

const team = (extra: Record<string, unknown> = {}) => createBody({ teamId: SEEDED.team, ...extra });
const newUser = { email: "new@acme.example", password: "s3cret-pw", firstName: "New", lastName: "User" };

interface Case {
  name: string;
  caller?: "individual" | "admin";
  body: Record<string, unknown>;
  status: number;
  code: string;
  message: RegExp | string;
}

/** Refused as invalid: 400 validation_failed, its message holding `message`. */
const invalid = (message: RegExp | string) => ({ status: 400, code: "validation_failed", message });

/** Refused for an id the caller cannot see: 404 not_found, "`field` `id` not found". */
const notFound = (field: string, id: string) => ({
  status: 404,
  code: "not_found",
  message: `${field} ${id} not found`,
});

const CREATE_CASES: Case[] = [
  ...["region", "machineType", "size", "billingType", "machineName", "templateId"].map((field) => ({
    name: `missing ${field}`,
    body: Object.fromEntries(Object.entries(createBody()).filter(([k]) => k !== field)),
    // A missing closed-set field is reported as required, with its allowed values.
    ...invalid(
      ["region", "machineType", "billingType"].includes(field)
        ? `${field} is required (one of:`
        : `${field} is required`,
    ),
  })),
  {
    name: "unknown region",
    body: createBody({ region: "Mars" }),
    ...invalid('region must be one of: West Coast (CA1), East Coast (NY2), Europe (AMS1) (got "Mars")'),
  },
  {
    name: "unknown machineType",
    body: createBody({ machineType: "Z9" }),
    ...invalid(/machineType must be one of: Air, Standard, .*C10 \(got "Z9"\)/),
  },
  {
    name: "unknown billingType",
    body: createBody({ billingType: "weekly" }),
    ...invalid('billingType must be one of: monthly, hourly (got "weekly")'),
  },
  {
    name: "unknown restorePointFrequency",
    body: createBody({ restorePointFrequency: "daily" }),
    ...invalid("restorePointFrequency must be one of: shutdown"),
  },
  {
    name: "size as a string",
    body: createBody({ size: "50" }),
    ...invalid("size must be a number (got string)"),
  },
  {
    name: "body not an object",
    body: [1, 2] as unknown as Record<string, unknown>,
    ...invalid("body must be an object"),
  },
  {
    name: "assignPublicIp with dynamicPublicIp",
    body: createBody({ assignPublicIp: true, dynamicPublicIp: true }),
    ...invalid("assignPublicIp and dynamicPublicIp cannot be combined"),
  },
  {
    name: "userId with new-user fields",
    caller: "admin",
    body: team({ userId: SEEDED.member, email: "x@acme.example" }),
    ...invalid("userId cannot be combined with the new-user fields (email)"),
  },
  {
    name: "some new-user fields only",
    caller: "admin",
    body: team({ email: "x@acme.example", firstName: "X" }),
    ...invalid("missing password, lastName"),
  },
  {
    name: "markSnapshotAsRestorePoint without takeInitialSnapshot",
    body: createBody({ markSnapshotAsRestorePoint: true, restorePointFrequency: "shutdown" }),
    ...invalid("markSnapshotAsRestorePoint needs takeInitialSnapshot: true"),
  },
  {
    name: "markSnapshotAsRestorePoint without restorePointFrequency",
    body: createBody({ markSnapshotAsRestorePoint: true, takeInitialSnapshot: true }),
    ...invalid("markSnapshotAsRestorePoint needs restorePointFrequency (one of: shutdown)"),
  },
  {
    name: "Windows template with a CPU-only type",
    body: createBody({ templateId: SEEDED.windowsTemplate, machineType: "C2" }),
    ...invalid(templateTypeViolation("Windows 10", "C2") as string),
  },
  {
    name: "Ubuntu template with a GRID type",
    body: createBody({ templateId: SEEDED.desktopTemplate, machineType: "Air" }),
    ...invalid(templateTypeViolation("Ubuntu 22.04 Desktop", "Air") as string),
  },
  {
    name: "unknown templateId",
    body: createBody({ templateId: "t999" }),
    ...notFound("templateId", "t999"),
  },
  {
    name: "another account's template",
    body: createBody({ templateId: SEEDED.teamTemplate }),
    ...notFound("templateId", SEEDED.teamTemplate),
  },
  {
    name: "unknown networkId",
    body: createBody({ networkId: "n999" }),
    ...notFound("networkId", "n999"),
  },
  {
    name: "another account's network",
    body: createBody({ networkId: SEEDED.teamNy2Network }),
    ...notFound("networkId", SEEDED.teamNy2Network),
  },
  {
    name: "network in another region",
    body: createBody({ networkId: SEEDED.individualCa1Network }),
    ...invalid(
      `networkId ${SEEDED.individualCa1Network} is in region West Coast (CA1), not East Coast (NY2)`,
    ),
  },
  {
    name: "unknown scriptId",
    body: createBody({ scriptId: "sc999" }),
    ...notFound("scriptId", "sc999"),
  },
  {
    name: "unknown userId (team)",
    caller: "admin",
    body: team({ userId: "u999" }),
    ...notFound("userId", "u999"),
  },
  {
    name: "userId of another account (individual)",
    body: createBody({ userId: SEEDED.member }),
    ...notFound("userId", SEEDED.member),
  },
  {
    name: "team admin without teamId",
    caller: "admin",
    body: createBody({ userId: SEEDED.member }),
    ...invalid("teamId is required"),
  },
  {
    name: "team admin with another team's id",
    caller: "admin",
    body: createBody({ teamId: "teother1", userId: SEEDED.member }),
    ...notFound("teamId", "teother1"),
  },
  {
    name: "individual with a teamId",
    body: createBody({ teamId: SEEDED.team }),
    ...notFound("teamId", SEEDED.team),
  },
  {
    name: "team admin naming no user",
    caller: "admin",
    body: team(),
    ...invalid("a team administrator must name the machine's user"),
  },
  {
    name: "individual creating a new user",
    body: createBody(newUser),
    ...invalid("new users (email, password, firstName, lastName) can only be created on a team account"),
  },
  {
    name: "new user with an email already in use",
    caller: "admin",
    body: team({ ...newUser, email: "max@acme.example" }),
    status: 409,
    code: "conflict",
    message: "a user with email max@acme.example already exists",
  },
];

describe("createSingleMachinePublic", () => {
  it.each(CREATE_CASES.map((c) => [c.name, c] as const))("create: %s → refused", async (_name, c) => {
    const api: Api = c.caller === "admin" ? fx.admin : fx.individual;
    // Snapshot before the call, so the refusal is known to have changed nothing.
    const before = await fx.emu.control.state();
    const res = await api.post("/machines/createSingleMachinePublic", c.body);
    expect(res.status).toBe(c.status);
    const body = NestedErrorBodySchema.parse(res.body);
    expect(body.error).toMatchObject({ name: "Error", status: c.status, code: c.code });
    expect(body.error.message).toMatch(c.message); // a string: a part of the message
    const after = await fx.emu.control.state();
    expect([after.machines, after.users]).toEqual([before.machines, before.users]);
  });

  it("create: unknown extra body fields → ignored, 200", async () => {
    const res = await fx.individual.post(
      "/machines/createSingleMachinePublic",
      createBody({ vendorHint: 1, tags: ["a"] }),
    );
    expect(res.status).toBe(200);
  });

  it("create: team admin with new-user fields → new team user in getUsers, password never returned or kept", async () => {
    const res = await fx.admin.post<{ userId: string }>("/machines/createSingleMachinePublic", team(newUser));
    expect(res.status).toBe(200);
    const users = await fx.admin.get<{ id: string; email: string }[]>("/users/getUsers");
    const created = users.body.find((u) => u.email === newUser.email);
    expect(created).toBeDefined();
    expect(res.body.userId).toBe(created?.id);
    expect(JSON.stringify(users.body)).not.toContain(newUser.password);
    expect(JSON.stringify(await fx.emu.control.state())).not.toContain(newUser.password);
  });
});
