/**
 * The emulator CLI as a real child process: requests that carry every kind of secret — the three
 * account keys, a wrong key, a valid and an expired delegation token, a new user's password and a
 * script's text — on success and failure paths (validation, conflicts, 413, malformed JSON,
 * invalid UTF-8, faults, unparsable requests). Its stderr log must hold none of them, and only
 * well-formed request lines.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { ENDPOINTS } from "./support/endpoints";
import { send, sendBytes, type RawRequest } from "./support/http";
import { createBody, populate, TEAM } from "./support/world";

const ROOT = path.resolve(__dirname, "../..");
const nonce = randomBytes(6).toString("hex");
const PASSWORD = `pw-secret-${nonce}`;
const SCRIPT = `echo script-secret-${nonce}`;
const WRONG_KEY = `wrong-key-${nonce}`;

/** Lines the log may contain: one per request, the unparsable and CONNECT lines, and the stop line. */
const LINE =
  /^((GET|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|HEAD) \S+ (\d{3}|reset|dropped) \d+ms|- \(unparsable request\) \d{3} 0ms|CONNECT \(proxy request\) 405 0ms|vmapi-emulator: SIGTERM, stopping)$/;

interface Cli {
  url: string;
  keys: { individual: string; teamAdmin: string; teamMember: string };
  stop(): Promise<string>;
}

async function startCli(): Promise<Cli> {
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", "src/emulator/cli.ts", "--port", "0", "--clock", "manual"],
    { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true" } },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const ready = await new Promise<{ url: string; keys: Cli["keys"] }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line; stderr: ${stderr}`)), 20_000);
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
      if (!stdout.includes("\n")) return;
      clearTimeout(timer);
      resolve(JSON.parse(stdout.split("\n")[0]) as { url: string; keys: Cli["keys"] });
    });
  });
  return {
    ...ready,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      return stderr;
    },
  };
}

let cli: Cli;
let sent = 0;
beforeAll(async () => {
  cli = await startCli();
});
afterAll(() => cli.stop());

const call = (req: RawRequest) => {
  sent += 1;
  return send(cli.url, req);
};

it("emulator log: every endpoint × 6 keys plus 17 secret-bearing requests → none of 8 secrets in stderr, every line well-formed", async () => {
  const world = await populate(cli.url, cli.keys);
  const { validForOtherMachine: token, expiredForTarget: expired } = world.tokens;
  const admin = cli.keys.teamAdmin;

  // Every endpoint with every kind of key (success and refusal paths alike).
  for (const key of [cli.keys.individual, cli.keys.teamMember, WRONG_KEY, token, expired, admin]) {
    for (const [i, e] of ENDPOINTS.entries()) await call({ ...e.request(world.team, `${i}`), key });
  }
  // A delegation token used on its own machine, and as a machine id in a path.
  const other = `/machines/getMachinePublic?machineId=${encodeURIComponent(world.team.machine)}`;
  await call({ path: other, key: token });
  await call({ method: "POST", path: `/machines/${token}/start`, key: admin });

  // The new user's password: created, conflicting, too long, in malformed JSON, in invalid UTF-8.
  const newUser = {
    teamId: TEAM,
    email: `new-${nonce}@acme.example`,
    password: PASSWORD,
    firstName: "N",
    lastName: "U",
  };
  const create = (json: unknown) =>
    call({ method: "POST", path: "/machines/createSingleMachinePublic", key: admin, json });
  await create(createBody(newUser));
  await create(createBody(newUser));
  await create(createBody({ ...newUser, email: `x-${nonce}@acme.example`, password: PASSWORD.repeat(20) }));
  const raw = (body: string | Buffer, route = "/machines/createSingleMachinePublic") =>
    call({ method: "POST", path: route, key: admin, headers: { "Content-Type": "application/json" }, body });
  await raw(`{"password": ${PASSWORD}}`);
  await raw(Buffer.concat([Buffer.from(`{"password":"${PASSWORD}`), Buffer.from([0xff]), Buffer.from('"}')]));

  // The script text: created, conflicting, over 16 KB, in malformed JSON, read back.
  const script = (json: unknown) => call({ method: "POST", path: "/scripts/createScript", key: admin, json });
  const created = await script({ scriptName: `s-${nonce}`, scriptText: SCRIPT });
  await script({ scriptName: `s-${nonce}`, scriptText: SCRIPT });
  await script({ scriptName: `big-${nonce}`, scriptText: SCRIPT.repeat(1000) });
  await raw(`{"scriptText": ${SCRIPT}}`, "/scripts/createScript");
  await call({ path: `/scripts/getScriptText?scriptId=${(created.body as { id: string }).id}`, key: admin });

  // Keys in places they do not belong, and faults on requests carrying secrets.
  await call({ path: `/users/getUsers?apiKey=${admin}&X-Api-Key=${admin}` });
  await call({
    path: "/users/getUsers",
    headers: { Authorization: `Bearer ${admin}`, Cookie: `key=${admin}` },
  });
  await call({
    method: "POST",
    path: "/_emulator/faults",
    json: {
      rules: [
        { route: "/scripts/createScript", dropResponse: true },
        { route: "/users/getUsers", reset: true },
      ],
    },
  });
  await script({ scriptName: `dropped-${nonce}`, scriptText: SCRIPT }).catch(() => undefined);
  await call({ path: "/users/getUsers", key: admin }).catch(() => undefined);
  await sendBytes(
    cli.url,
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${admin}\r\nNo Colon\r\n\r\n`,
  );
  await sendBytes(
    cli.url,
    `GET /users/getUsers HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${WRONG_KEY}${"k".repeat(20_000)}\r\n\r\n`,
  );

  const stderr = await cli.stop();
  const lines = stderr.trim().split("\n");
  const secrets = [
    ...Object.values(cli.keys),
    WRONG_KEY,
    token,
    expired,
    PASSWORD,
    SCRIPT,
    `script-secret-${nonce}`,
  ];
  expect(secrets).toHaveLength(9);
  for (const secret of secrets) expect(stderr).not.toContain(secret);
  expect(stderr).not.toContain(nonce);
  expect(lines.filter((l) => !LINE.test(l))).toEqual([]);
  expect(lines.length).toBeGreaterThanOrEqual(sent);
  expect(sent).toBe(ENDPOINTS.length * 6 + 17);
});
