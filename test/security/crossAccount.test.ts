/**
 * Ids of another account in every id-taking field (body and path), in both directions, and every
 * way a key could be smuggled past X-Api-Key: each answers 404 naming the field (indistinguishable
 * from an unknown id) or 401, with the nested error body, and changes nothing.
 */
import { ENDPOINTS } from "./support/endpoints";
import { expectClientError, send, snapshot, type RawAnswer, type RawRequest } from "./support/http";
import { buildWorld, createBody, TEAM, USERS, type World } from "./support/world";
import { SEEDED } from "../kit/seeded";

let world: World;
beforeAll(async () => {
  world = await buildWorld();
});
afterAll(() => world.close());

/** Sends `req`, expects the given refusal, and the state dump unchanged. */
async function expectRefused(
  req: RawRequest,
  status: number,
  code: string,
  message?: RegExp,
): Promise<RawAnswer> {
  const before = await snapshot(world.url);
  const answer = await send(world.url, req);
  const error = expectClientError(answer, status, code);
  if (message) expect(error.message).toMatch(message);
  expect(await snapshot(world.url)).toEqual(before);
  return answer;
}

type Direction = "individual → team" | "team admin → individual";
const DIRECTIONS: Direction[] = ["individual → team", "team admin → individual"];

/** The caller's key, its own machine, and the other account's resources. */
function sides(direction: Direction) {
  const fromIndividual = direction === "individual → team";
  const [mine, theirs] = fromIndividual ? [world.individual, world.team] : [world.team, world.individual];
  const key = fromIndividual ? world.keys.individual : world.keys.teamAdmin;
  const base = fromIndividual ? createBody() : createBody({ teamId: TEAM, userId: USERS.admin });
  return { mine, theirs, key, base };
}

describe("cross-account ids in request bodies", () => {
  const createFields = DIRECTIONS.flatMap((d) =>
    (d === "individual → team"
      ? ["templateId", "networkId", "scriptId", "teamId", "userId"]
      : ["networkId", "scriptId", "userId"]
    ).map((field) => [field, d] as const),
  );

  it.each(createFields)("createMachine: %s of another account (%s) → 404 naming it", async (field, d) => {
    const { theirs, key, base } = sides(d);
    const value = {
      templateId: SEEDED.teamTemplate,
      networkId: theirs.network,
      scriptId: theirs.script,
      teamId: TEAM,
      userId: theirs.user === USERS.member ? USERS.admin : theirs.user,
    }[field];
    await expectRefused(
      { method: "POST", path: "/machines/createSingleMachinePublic", key, json: { ...base, [field]: value } },
      404,
      "not_found",
      new RegExp(`^${field} ${value} not found$`),
    );
  });

  it.each(DIRECTIONS)("createScript: machineId of another account (%s) → 404, no script", async (d) => {
    const { theirs, key } = sides(d);
    const json = { scriptName: `x-${d.length}`, scriptText: "echo", machineId: theirs.machine };
    await expectRefused(
      { method: "POST", path: "/scripts/createScript", key, json },
      404,
      "not_found",
      /machineId/,
    );
  });

  it.each(DIRECTIONS)(
    "createDelegation: own machine plus another account's (%s) → 404, no token",
    async (d) => {
      const { mine, theirs, key } = sides(d);
      const json = { machine: { ids: [mine.machine, theirs.machine] } };
      const answer = await expectRefused(
        { method: "POST", path: "/resourceDelegations/create", key, json },
        404,
        "not_found",
      );
      expect(answer.text).not.toMatch(/accessTokenId/);
    },
  );

  it.each(DIRECTIONS)("setMachineAccess: own machine, another account's userId (%s) → 404", async (d) => {
    const { mine, theirs, key } = sides(d);
    const json = { userId: theirs.user, enableAccess: true };
    const path = `/machines/${mine.machine}/setMachineAccess`;
    await expectRefused(
      { method: "POST", path, key, json },
      404,
      "not_found",
      new RegExp(`userId ${theirs.user}`),
    );
  });

  it.each(DIRECTIONS)(
    "setMachineAccess: own path, another account's machineId in the body (%s) → 400",
    async (d) => {
      const { mine, theirs, key } = sides(d);
      const json = { userId: mine.user, enableAccess: true, machineId: theirs.machine };
      const path = `/machines/${mine.machine}/setMachineAccess`;
      await expectRefused(
        { method: "POST", path, key, json },
        400,
        "validation_failed",
        /does not match the path/,
      );
    },
  );

  it.each(DIRECTIONS)("getScript(Text)/getUtilization: another account's ids (%s) → 404 each", async (d) => {
    const { theirs, key } = sides(d);
    for (const path of [
      `/scripts/getScript?scriptId=${theirs.script}`,
      `/scripts/getScriptText?scriptId=${theirs.script}`,
      `/machines/getUtilization?machineId=${theirs.offMachine}&billingMonth=2026-01`,
      `/machines/getMachinePublic?machineId=${theirs.offMachine}`,
    ]) {
      await expectRefused({ path, key }, 404, "not_found", / not found$/);
    }
  });

  it("unknown id vs another account's id: same status, code and message shape", async () => {
    const hidden = await send(world.url, {
      path: `/machines/getMachinePublic?machineId=${world.team.machine}`,
      key: world.keys.individual,
    });
    const unknown = await send(world.url, {
      path: "/machines/getMachinePublic?machineId=psnothere",
      key: world.keys.individual,
    });
    expect(hidden.status).toBe(unknown.status);
    expect(hidden.text.replace(world.team.machine, "ID")).toBe(unknown.text.replace("psnothere", "ID"));
  });
});

describe("keys presented any other way", () => {
  const variants: [string, (w: World) => RawRequest["headers"]][] = [
    ["a real key in upper case", (w) => ({ "X-Api-Key": w.keys.teamAdmin.toUpperCase() })],
    ["a real key's prefix", (w) => ({ "X-Api-Key": w.keys.teamAdmin.slice(0, -1) })],
    [
      "a real key and a wrong one as two X-Api-Key headers",
      (w) => ({ "X-Api-Key": [w.keys.teamAdmin, "x"] }),
    ],
    [
      "a real key twice as two X-Api-Key headers",
      (w) => ({ "X-Api-Key": [w.keys.teamAdmin, w.keys.teamAdmin] }),
    ],
    ["a real key as Authorization: Bearer", (w) => ({ Authorization: `Bearer ${w.keys.teamAdmin}` })],
    ["a real key as a cookie", (w) => ({ Cookie: `X-Api-Key=${w.keys.teamAdmin}` })],
    ["a user id as the key", () => ({ "X-Api-Key": USERS.admin })],
    ["a delegation's numeric id as the key", () => ({ "X-Api-Key": "1" })],
  ];

  it.each(variants)("every endpoint: %s → 401 invalid_api_key, state unchanged", async (_name, headers) => {
    for (const [i, endpoint] of ENDPOINTS.entries()) {
      await expectRefused(
        { ...endpoint.request(world.team, `k${i}`), headers: headers(world) },
        401,
        "invalid_api_key",
      );
    }
  });

  it("every endpoint: a real key in the query string only → 401", async () => {
    for (const [i, endpoint] of ENDPOINTS.entries()) {
      const req = endpoint.request(world.team, `q${i}`);
      const sep = req.path.includes("?") ? "&" : "?";
      const path = `${req.path}${sep}X-Api-Key=${world.keys.teamAdmin}&apiKey=${world.keys.teamAdmin}`;
      await expectRefused({ ...req, path }, 401, "invalid_api_key", /missing X-Api-Key/);
    }
  });
});
