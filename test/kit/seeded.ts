/**
 * The ids of the default seed (src/emulator/state/defaultSeed.ts), found in it by what they are
 * rather than written out again: a test names `SEEDED.admin`, and a change of the seed shows up
 * here, once.
 */
import { DEFAULT_SEED } from "../../src/emulator";
import type { Region } from "../../src/contract/constants";

type SeedUser = (typeof DEFAULT_SEED.users)[number];
type SeedTemplate = NonNullable<typeof DEFAULT_SEED.templates>[number];
type SeedNetwork = NonNullable<typeof DEFAULT_SEED.networks>[number];

function one<T>(items: readonly T[] | undefined, what: string, test: (item: T) => boolean): T {
  const found = (items ?? []).filter(test);
  if (found.length !== 1) throw new Error(`the default seed has ${found.length} ${what}, not one`);
  return found[0];
}

const user = (what: string, test: (u: SeedUser) => boolean) => one(DEFAULT_SEED.users, what, test).id;
const template = (what: string, test: (t: SeedTemplate) => boolean) =>
  one(DEFAULT_SEED.templates, what, test).id;
const network = (owner: (n: SeedNetwork) => boolean, region: Region) =>
  one(DEFAULT_SEED.networks, `networks in ${region}`, (n) => owner(n) && n.region === region).id;

const individualUser = user("individual users", (u) => (u.teamId ?? null) === null);
const team = one(DEFAULT_SEED.teams, "teams", () => true).id;
const ofJane = (n: SeedNetwork) => n.userId === individualUser;
const ofTeam = (n: SeedNetwork) => n.teamId === team;
const publicTemplate = (agentType: string) => (t: SeedTemplate) =>
  (t.teamId ?? null) === null && (t.userId ?? null) === null && t.agentType === agentType;

/** Seeded ids of the default seed used across tests. */
export const SEEDED = {
  /** Jane, the individual account (admin of it). */
  individualUser,
  /** The team "Acme". */
  team,
  /** Acme's admin. */
  admin: user("team admins", (u) => u.teamId === team && u.role === "admin"),
  /** Acme's member. */
  member: user("team members", (u) => u.teamId === team && u.role === "member"),
  /** Public Ubuntu desktop (provisioning → ready). */
  desktopTemplate: template("public Linux desktops", publicTemplate("LinuxDesktop")),
  /** Public Ubuntu server (headless). */
  headlessTemplate: template("public Linux servers", publicTemplate("LinuxHeadless")),
  /** Public Windows desktop. */
  windowsTemplate: template("public Windows desktops", publicTemplate("WindowsDesktop")),
  /** Acme's private template. */
  teamTemplate: template("team templates", (t) => t.teamId === team),
  individualNy2Network: network(ofJane, "East Coast (NY2)"),
  individualCa1Network: network(ofJane, "West Coast (CA1)"),
  individualAms1Network: network(ofJane, "Europe (AMS1)"),
  teamNy2Network: network(ofTeam, "East Coast (NY2)"),
  teamCa1Network: network(ofTeam, "West Coast (CA1)"),
  teamAms1Network: network(ofTeam, "Europe (AMS1)"),
} as const;

/** The seeded users by first name, as the security tests call them. */
export const USERS = { jane: SEEDED.individualUser, admin: SEEDED.admin, member: SEEDED.member } as const;
