/**
 * The seed format (`--seed FILE` and `EmulatorOptions.seed`), validated with zod, and its
 * conversion into the store's records. A seed holds accounts, keys, networks, templates and
 * capacity; machines and scripts are always created through the API.
 */
import { z } from "zod";
import { AGENT_TYPES, MACHINE_TYPES, REGIONS } from "../../contract/constants";
import { formatIssues } from "../../contract/formatIssues";
import { TimestampSchema } from "../../contract/schemas";
import type { StoreData } from "./records";

const id = z.string().min(1).max(128);

const SeedObjectSchema = z.object({
  clockStart: TimestampSchema.default("2026-01-15T09:00:00.000Z"),
  randomSeed: z.number().int().min(0).max(0xffffffff).default(1),
  keys: z.object({
    individual: z.string().min(1),
    teamAdmin: z.string().min(1),
    teamMember: z.string().min(1),
  }),
  teams: z.array(z.object({ id, name: z.string().min(1), dtCreated: TimestampSchema })),
  users: z.array(
    z.object({
      id,
      email: z.string().email(),
      firstname: z.string(),
      lastname: z.string(),
      dtCreated: TimestampSchema,
      teamId: id.nullable(),
      role: z.enum(["admin", "member"]),
      apiKey: z.string().min(1).nullable().default(null),
    }),
  ),
  networks: z.array(
    z.object({
      id,
      name: z.string(),
      region: z.enum(REGIONS),
      dtCreated: TimestampSchema,
      network: z
        .string()
        .regex(/^\d+\.\d+\.\d+\.0$/, { message: "must be an IPv4 /24 address like 10.0.0.0" }),
      netmask: z.string(),
      teamId: id.nullable().default(null),
      userId: id.nullable().default(null),
    }),
  ),
  templates: z.array(
    z.object({
      id,
      name: z.string(),
      label: z.string(),
      os: z.string(),
      agentType: z.enum(AGENT_TYPES),
      dtCreated: TimestampSchema,
      teamId: id.nullable().default(null),
      userId: id.nullable().default(null),
      region: z.enum(REGIONS).nullable().default(null),
    }),
  ),
  capacity: z
    .array(
      z.object({
        region: z.enum(REGIONS),
        machineType: z.enum(MACHINE_TYPES),
        available: z.boolean().default(true),
        failNextStarts: z.number().int().min(0).default(0),
      }),
    )
    .default([]),
});

/** A seed as written (defaults not yet applied). */
export type SeedInput = z.input<typeof SeedObjectSchema>;
/** A validated seed. */
export type Seed = z.output<typeof SeedObjectSchema>;

/** Schema of a seed file. Timestamps are ISO strings; unset optional ids default to null. */
export const SeedSchema = SeedObjectSchema.superRefine(checkReferences);

function checkReferences(s: Seed, ctx: z.RefinementCtx): void {
  const teamIds = new Set(s.teams.map((t) => t.id));
  const userIds = new Set(s.users.map((u) => u.id));
  const fail = (path: (string | number)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });
  s.users.forEach((u, i) => {
    if (u.teamId !== null && !teamIds.has(u.teamId))
      fail(["users", i, "teamId"], `users.${i}.teamId ${u.teamId} is not a seeded team`);
    if (u.teamId === null && u.role !== "admin")
      fail(["users", i, "role"], `users.${i}.role must be admin on an individual account`);
  });
  s.networks.forEach((n, i) => {
    if ((n.teamId === null) === (n.userId === null))
      fail(["networks", i], `networks.${i} needs exactly one of teamId, userId`);
  });
  const keyed = new Map(s.users.filter((u) => u.apiKey !== null).map((u) => [u.apiKey, u]));
  if (keyed.size !== s.users.filter((u) => u.apiKey !== null).length)
    fail(["users"], "users: apiKey values must be unique");
  const expect = {
    individual: [null, "admin"],
    teamAdmin: ["team", "admin"],
    teamMember: ["team", "member"],
  } as const;
  for (const [name, [team, role]] of Object.entries(expect)) {
    const user = keyed.get(s.keys[name as keyof Seed["keys"]]);
    if (!user || user.role !== role || (team === null) !== (user.teamId === null)) {
      fail(
        ["keys", name],
        `keys.${name} must be the apiKey of a seeded ${team ? "team" : "individual"} ${role}`,
      );
    }
  }
  for (const [list, ids] of [
    ["teams", s.teams],
    ["users", s.users],
    ["networks", s.networks],
    ["templates", s.templates],
  ] as const) {
    const seen = new Set(ids.map((x) => x.id));
    if (seen.size !== ids.length) fail([list], `${list}: ids must be unique`);
  }
  if (userIds.size === 0) fail(["users"], "users: at least one user is needed");
}

/** Validates seed JSON; throws an Error whose message names every bad field. */
export function parseSeed(input: unknown): Seed {
  const result = SeedSchema.safeParse(input, { reportInput: true });
  if (!result.success) throw new Error(`invalid seed: ${formatIssues(result.error.issues)}`);
  return result.data;
}

/** The store's starting records for a validated seed. */
export function seedToData(seed: Seed): StoreData {
  const ms = (t: string) => Date.parse(t);
  return {
    keys: { ...seed.keys },
    teams: seed.teams.map((t) => ({ ...t, dtCreated: ms(t.dtCreated) })),
    users: seed.users.map((u) => ({ ...u, dtCreated: ms(u.dtCreated) })),
    networks: seed.networks.map((n) => ({ ...n, dtCreated: ms(n.dtCreated), lastHost: 9 })),
    templates: seed.templates.map((t) => ({ ...t, dtCreated: ms(t.dtCreated) })),
    machines: [],
    scripts: [],
    delegations: [],
    capacity: seed.capacity.map((c) => ({ ...c })),
    reservedIps: [],
    counters: { internalId: 0, delegationId: 0, staticIp: 0 },
  };
}
