/**
 * The README's first command as a newcomer runs it: `npm run demo` brings the quickstart up on
 * the real engine against a background emulator; then `npm run pulumi -- preview
 * --expect-no-changes` passes, `npm run emulator:stop` stops the emulator, and `npm run pulumi --
 * destroy --yes` restarts it on its state file and leaves nothing.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { REPO } from "./support/cli";

jest.setTimeout(240_000);

const exec = promisify(execFile);
const STACK = `demo${process.pid}`;
let workdir: string;
let env: NodeJS.ProcessEnv;

/** `npm run <script> -- <args>` from the repository's root, as typed; stdout and stderr together. */
async function npm(script: string, ...args: string[]): Promise<string> {
  const argv = ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])];
  const { stdout, stderr } = await exec("npm", argv, { cwd: REPO, env, timeout: 200_000 });
  return stdout + stderr;
}

beforeAll(() => {
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-demo-"));
  env = { ...process.env, VMAPI_WORKDIR: workdir, VMAPI_DEMO_STACK: STACK };
  for (const key of Object.keys(env)) {
    if (/^(PULUMI_|VMAPI_(API_KEY|BASE_URL)|INIT_CWD)/.test(key)) delete env[key];
  }
});
afterAll(async () => {
  await npm("emulator:stop").catch(() => undefined);
  await npm("pulumi", "stack", "rm", "--yes", "--force", STACK).catch(() => undefined);
  fs.rmSync(path.join(REPO, `Pulumi.${STACK}.yaml`), { force: true });
  fs.rmSync(workdir, { recursive: true, force: true });
});

it("demo: up → a ready machine and its outputs; preview → no changes; destroy after an emulator restart → nothing left", async () => {
  const demo = await npm("demo");
  expect(demo).toMatch(/emulator started at http:\/\/127\.0\.0\.1:\d+/);
  // The web console, on the emulator's own port: its address printed before the up.
  const consoleUrl = /console: (http:\/\/127\.0\.0\.1:\d+\/_console\/) /.exec(demo)?.[1];
  expect(demo.indexOf("console: ")).toBeLessThan(demo.indexOf("created"));
  const page = await fetch(consoleUrl!);
  expect([page.status, await page.text()]).toEqual([200, expect.stringContaining("<vmapi-console>")]);
  expect(demo).toMatch(/\+\s+pulumi-nodejs:dynamic\/vmapi:Machine trainer created/);
  // The provider's progress during the wait, then the outputs and the machines.
  expect(demo).toMatch(/machine trainer-\w+ \(ps\w+\): ready \(\d+ s\)/);
  expect(demo).toMatch(/machineState\s+ready/);
  expect(demo).toMatch(/Machines at .* \(1\):\n\s+ps\w+\s+ready/);
  expect(demo).toContain("npm run pulumi -- preview --expect-no-changes");

  // The stack's files hold no plaintext API key.
  const backend = path.join(workdir, "backend");
  const stateFiles = fs
    .readdirSync(backend, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => fs.readFileSync(path.join(e.parentPath, e.name), "utf8"));
  expect(stateFiles.length).toBeGreaterThan(0);
  expect(stateFiles.some((text) => text.includes("dev-individual-key"))).toBe(false);
  expect(fs.readFileSync(path.join(REPO, `Pulumi.${STACK}.yaml`), "utf8")).not.toContain(
    "dev-individual-key",
  );
  // The files that hold keys and the passphrase are the owner's alone.
  for (const file of ["emulator.json", "passphrase"]) {
    expect(fs.statSync(path.join(workdir, file)).mode & 0o077).toBe(0);
  }

  expect(await npm("pulumi", "preview", "--expect-no-changes")).toMatch(/unchanged/);
  // A mistyped flag is refused by the CLI, not ignored (and nothing runs).
  await expect(npm("pulumi", "up", "--yes", "--programm", "examples/team")).rejects.toThrow(
    /unknown flag: --programm/,
  );

  expect(await npm("emulator:stop")).toMatch(/stopped the emulator/);
  const destroy = await npm("pulumi", "destroy", "--yes");
  expect(destroy).toMatch(/emulator restarted on its state file/);
  expect(destroy).toMatch(/- 3 deleted/);
  const info = JSON.parse(fs.readFileSync(path.join(workdir, "emulator.json"), "utf8")) as {
    url: string;
    keys: { individual: string };
  };
  const response = await fetch(`${info.url}/machines/getMachines`, {
    headers: { "X-Api-Key": info.keys.individual },
  });
  expect(await response.json()).toEqual([]);
});
