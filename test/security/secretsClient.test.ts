/**
 * Secrets never leave the client through its errors or its debug log: the API key (random per
 * run), a wrong key, a delegation token (valid, then expired), a new user's password and a
 * script's text. Every failure path is driven for real (emulator, faults, a drifting stub, a
 * closed port), and each error is searched as message, stack, String, JSON and util.inspect.
 */
import { randomBytes } from "node:crypto";
import { inspect } from "node:util";
import { VmApiClient, type VmApiClientOptions } from "../../src/client/client";
import * as errors from "../../src/client/core/errors";
import { DELEGATION_LIFETIME_MS } from "../../src/contract/constants";
import { DEFAULT_SEED } from "../../src/emulator";
import { useTestEmulator } from "../kit/emulator";
import { startLoopback } from "./support/loopback";
import { MACHINE } from "./support/fixtures";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";

const nonce = randomBytes(6).toString("hex");
const KEYS = { individual: `ind-${nonce}`, teamAdmin: `adm-${nonce}`, teamMember: `mem-${nonce}` };
const WRONG_KEY = `wrong-${nonce}`;
const PASSWORD = `pw-${nonce}-secret`;
const SCRIPT = `echo script-${nonce}`;
const seed = {
  ...DEFAULT_SEED,
  keys: KEYS,
  users: DEFAULT_SEED.users.map((u) => {
    const role = (Object.keys(DEFAULT_SEED.keys) as (keyof typeof KEYS)[]).find(
      (k) => DEFAULT_SEED.keys[k] === u.apiKey,
    );
    return role ? { ...u, apiKey: KEYS[role] } : u;
  }),
};

const emu = useTestEmulator({ seed });
const logLines: string[] = [];
const tokens: string[] = [];
afterEach(() => emu.control.clearFaults());

const client = (apiKey: string, options: Partial<VmApiClientOptions> = {}) =>
  new VmApiClient({
    apiKey,
    baseUrl: emu.url,
    env: {},
    sleep: async () => {},
    log: (l) => logLines.push(l),
    ...options,
  });

/** Every rendering of `value` a program or Pulumi might print. */
function renderings(value: unknown): string[] {
  const e = value as Error;
  return [
    String(value),
    e.message,
    e.stack,
    JSON.stringify(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
  ].map((s) => s ?? "");
}

function expectNoSecrets(value: unknown): void {
  const secrets = [...Object.values(KEYS), WRONG_KEY, PASSWORD, SCRIPT, `script-${nonce}`, ...tokens];
  for (const text of [...renderings(value), logLines.join("\n")]) {
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
}

async function expectFailure<T extends errors.VmApiError>(
  promise: Promise<unknown>,
  type: new (...a: never[]) => T,
): Promise<T> {
  const error = await promise.then(
    () => new Error("resolved"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  expectNoSecrets(error);
  return error as T;
}

const machineBody = (extra: Record<string, unknown> = {}) => ({
  ...MACHINE_BASICS,
  machineName: `m-${nonce}`,
  templateId: SEEDED.desktopTemplate,
  ...extra,
});
const newUser = {
  teamId: SEEDED.team,
  email: `n-${nonce}@acme.example`,
  password: PASSWORD,
  firstName: "N",
  lastName: "U",
};

describe("client errors and log lines hold no secret", () => {
  it("users.list: wrong key → AuthenticationError", async () => {
    await expectFailure(client(WRONG_KEY).users.list(), errors.AuthenticationError);
  });

  it("machines.get / create: unknown id, team member creating → NotFoundError, PermissionDeniedError", async () => {
    await expectFailure(client(KEYS.individual).machines.get("psnothere"), errors.NotFoundError);
    await expectFailure(
      client(KEYS.teamMember).machines.create(machineBody(newUser)),
      errors.PermissionDeniedError,
    );
  });

  it("machines.create: new user with a password, then the same email → ConflictError", async () => {
    const admin = client(KEYS.teamAdmin);
    const created = await admin.machines.create(machineBody(newUser));
    expectNoSecrets(created);
    await expectFailure(admin.machines.create(machineBody(newUser)), errors.ConflictError);
  });

  it("machines.create: password over 255 characters → ValidationError before sending", async () => {
    await expectFailure(
      client(KEYS.teamAdmin).machines.create(machineBody({ ...newUser, password: PASSWORD.repeat(20) })),
      errors.ValidationError,
    );
  });

  it("scripts.create: duplicate name → ConflictError; text over 16 KB → ValidationError", async () => {
    const admin = client(KEYS.individual);
    expectNoSecrets(await admin.scripts.create({ scriptName: `s-${nonce}`, scriptText: SCRIPT }));
    await expectFailure(
      admin.scripts.create({ scriptName: `s-${nonce}`, scriptText: `${SCRIPT} 2` }),
      errors.ConflictError,
    );
    await expectFailure(
      admin.scripts.create({ scriptName: "big", scriptText: SCRIPT.repeat(2000) }),
      errors.ValidationError,
    );
  });

  it("delegation token as the key: other machine, other endpoint, expired → 403, 403, 401", async () => {
    const admin = client(KEYS.teamAdmin);
    const [mine, other] = await Promise.all([
      admin.machines.create(
        machineBody({ teamId: SEEDED.team, userId: SEEDED.admin, machineName: `a-${nonce}` }),
      ),
      admin.machines.create(
        machineBody({ teamId: SEEDED.team, userId: SEEDED.admin, machineName: `b-${nonce}` }),
      ),
    ]);
    const delegation = await admin.resourceDelegations.create({ machine: { ids: [mine.id] } });
    tokens.push(delegation.accessTokenId);
    const delegated = client(delegation.accessTokenId);
    expectNoSecrets(await delegated.machines.get(mine.id));
    await expectFailure(delegated.machines.get(other.id), errors.PermissionDeniedError);
    await expectFailure(delegated.users.list(), errors.PermissionDeniedError);
    emu.advance(DELEGATION_LIFETIME_MS + 1);
    await expectFailure(delegated.machines.stop(mine.id), errors.AuthenticationError);
  });

  it("retries: 503 twice then success; 500 on create; a reset → logged retries, ServerError, ConnectionError", async () => {
    const admin = client(KEYS.individual);
    await emu.control.addFaults([{ route: "/users/getUsers", status: 503, times: 2 }]);
    expectNoSecrets(await admin.users.list());
    expect(logLines.some((l) => /retry #2/.test(l))).toBe(true);
    await emu.control.addFaults([{ route: "/scripts/createScript", status: 500, times: 10 }]);
    await expectFailure(
      admin.scripts.create({ scriptName: `f-${nonce}`, scriptText: SCRIPT }),
      errors.ServerError,
    );
    await emu.control.addFaults([{ route: "/networks/getNetworks", reset: true, times: 10 }]);
    await expectFailure(admin.networks.list(), errors.ConnectionError);
  });

  it("machines.get: slower than timeoutMs → TimeoutError", async () => {
    await emu.control.addFaults([{ route: "/machines/getMachinePublic", latencyMs: 300 }]);
    await expectFailure(
      client(KEYS.individual, { timeoutMs: 50, maxRetries: 0 }).machines.get("ps1"),
      errors.TimeoutError,
    );
  });

  it("users.list: nothing listening → ConnectionError", async () => {
    const closed = await startLoopback();
    await closed.close();
    const c = new VmApiClient({
      apiKey: KEYS.teamAdmin,
      baseUrl: closed.url,
      env: {},
      maxRetries: 1,
      sleep: async () => {},
      log: (l) => logLines.push(l),
    });
    await expectFailure(c.users.list(), errors.ConnectionError);
  });

  it("machines.get: a drifted answer → ResponseValidationError", async () => {
    const stub = await startLoopback();
    stub.answer = () => ({
      status: 200,
      body: { ...MACHINE, state: "hibernating", accessTokenId: tokens[0] },
    });
    const c = new VmApiClient({
      apiKey: KEYS.teamAdmin,
      baseUrl: stub.url,
      env: {},
      log: (l) => logLines.push(l),
    });
    await expectFailure(c.machines.get("ps1"), errors.ResponseValidationError);
    expect(stub.seen[0].headers["x-api-key"]).toBe(KEYS.teamAdmin);
    await stub.close();
  });

  it("client: util.inspect and JSON of the client and its parts → no key", () => {
    const c = client(KEYS.teamAdmin);
    for (const part of [c, c.machines, c.scripts, c.users, c.resourceDelegations]) expectNoSecrets(part);
    expect(logLines.length).toBeGreaterThan(20);
  });
});
