/**
 * The security matrix, generated: every API operation × every principal that must not get what
 * it asks for (or may only read) → the decided status of docs/emulator.md ("Permissions"), the
 * nested error body, no echo of the presented key, no other account's ids in a 2xx, and the
 * state dump unchanged. test/integration/emulator/permissions.test.ts covers the allowed roles
 * (owner, team admin, valid delegation); this covers the refused ones on every endpoint.
 */
import { API_ROUTES } from "../../src/emulator/http/routes";
import { ENDPOINTS, type Endpoint } from "./support/endpoints";
import { send, snapshot } from "./support/http";
import { buildWorld, type Target, type World } from "./support/world";

/** A caller and the account whose resources it aims at. */
interface Principal {
  name: string;
  key(w: World): string | null;
  target(w: World): Target;
  /** Outcome on each endpoint. */
  expect(e: Endpoint): Outcome;
}

/** A refusal (status, code, message) or a read that must succeed. */
type Outcome =
  { status: 401 | 403 | 404; code: string; message: RegExp } | { status: 200; list?: "own" | "empty" };

const MISSING = { status: 401, code: "invalid_api_key", message: /^missing X-Api-Key header/ } as const;
const UNKNOWN = { status: 401, code: "invalid_api_key", message: /^invalid API key$/ } as const;
const EXPIRED = {
  status: 401,
  code: "invalid_api_key",
  message: /^delegation token expired at \d{4}-/,
} as const;
const DELEGATION = { status: 403, code: "forbidden", message: /delegation token/ } as const;
const FORBIDDEN = { status: 403, code: "forbidden", message: /^only / } as const;
const HIDDEN = { status: 404, code: "not_found", message: / not found$/ } as const;

const LISTS = new Set(["getMachines", "getScripts", "getUsers", "getNetworks", "getTemplates"]);
/** What another member of the team (not owner, not admin) may do: read, never change. */
const MEMBER_READS = new Set([
  "getMachine",
  "getUtilization",
  "getAvailability",
  "getScript",
  "getScriptText",
]);

function otherAccount(e: Endpoint): Outcome {
  if (LISTS.has(e.name)) return { status: 200, list: "empty" };
  return e.takesId ? HIDDEN : { status: 200 };
}

const PRINCIPALS: readonly Principal[] = [
  { name: "missing key", key: () => null, target: (w) => w.team, expect: () => MISSING },
  {
    name: "wrong key (near miss of a real one)",
    key: (w) => `${w.keys.teamAdmin}-`,
    target: (w) => w.team,
    expect: () => UNKNOWN,
  },
  {
    name: "another account's key (individual → team)",
    key: (w) => w.keys.individual,
    target: (w) => w.team,
    expect: otherAccount,
  },
  {
    name: "another account's key (team admin → individual)",
    key: (w) => w.keys.teamAdmin,
    target: (w) => w.individual,
    expect: otherAccount,
  },
  {
    name: "team member's key on the admin's resources",
    key: (w) => w.keys.teamMember,
    target: (w) => w.team,
    expect: (e) =>
      LISTS.has(e.name)
        ? { status: 200, list: "own" }
        : MEMBER_READS.has(e.name)
          ? { status: 200 }
          : FORBIDDEN,
  },
  {
    name: "delegation token for another machine",
    key: (w) => w.tokens.validForOtherMachine,
    target: (w) => w.team,
    expect: () => DELEGATION,
  },
  {
    name: "expired delegation token (4 h 1 min old)",
    key: (w) => w.tokens.expiredForTarget,
    target: (w) => w.team,
    expect: () => EXPIRED,
  },
];

let world: World;
beforeAll(async () => {
  world = await buildWorld();
});
afterAll(() => world.close());

describe("security matrix", () => {
  it("catalogue: every API route of the emulator is in the matrix exactly once", () => {
    const routes = API_ROUTES.map((r) => `${r.method} ${r.template}`).sort();
    expect(ENDPOINTS.map((e) => `${e.method} ${e.template}`).sort()).toEqual(routes);
    expect(ENDPOINTS.length * PRINCIPALS.length).toBe(140);
  });

  const cases = ENDPOINTS.flatMap((e, i) =>
    PRINCIPALS.map((p, j) => {
      const o = p.expect(e);
      const label = o.status === 200 ? `200${o.list ? ` (${o.list} list)` : ""}` : `${o.status} ${o.code}`;
      return [e.name, p.name, label, e, p, `${i}-${j}`] as const;
    }),
  );

  it.each(cases)("%s: %s → %s, state unchanged", async (_e, _p, _label, endpoint, principal, tag) => {
    const key = principal.key(world);
    const target = principal.target(world);
    const before = await snapshot(world.url);
    const answer = await send(world.url, { ...endpoint.request(target, tag), key });
    // What another account's answer must not show (a refusal may name the id the caller sent).
    const shown = answer.status === 200 && target.account !== accountOf(world, key) ? target.privateIds : [];
    expect({
      status: answer.status,
      body: answer.body,
      leakedIds: shown.filter((id) => answer.text.includes(id)),
      keyShown: key !== null && answer.text.includes(key),
    }).toMatchObject(answerOf(principal.expect(endpoint)));
    expect(await snapshot(world.url)).toEqual(before);
  });
});

/**
 * The answer an outcome stands for: 200 (with an empty or a non-empty list when it names one), or
 * the nested error of the refusal; never a private id of another account, never the key.
 */
function answerOf(outcome: Outcome): Record<string, unknown> {
  const clean = { leakedIds: [], keyShown: false };
  if (outcome.status !== 200) {
    const { status, code, message } = outcome;
    return { ...clean, status, body: { error: { status, code, message: expect.stringMatching(message) } } };
  }
  const lists = { empty: [], own: expect.arrayContaining([expect.anything()]) };
  return { ...clean, status: 200, ...(outcome.list === undefined ? {} : { body: lists[outcome.list] }) };
}

function accountOf(w: World, key: string | null): Target["account"] | "none" {
  if (key === w.keys.individual) return "individual";
  return key === w.keys.teamAdmin || key === w.keys.teamMember ? "team" : "none";
}
