/**
 * The README's first command, as a newcomer runs it: `npm run demo` brings the quickstart up
 * against a background emulator, then `npm run stack -- preview` shows no changes and
 * `npm run stack -- destroy` leaves nothing, restarting the emulator on its state file if needed.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";

const run = promisify(execFile);
const REPO = path.resolve(__dirname, "..", "..");
let workdir: string;

async function stack(...args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(REPO, "tools", "stack.ts"), ...args],
    { cwd: REPO, env: { ...process.env, VMAPI_WORKDIR: workdir, VMAPI_BASE_URL: "" }, timeout: 120_000 },
  );
  return stdout;
}

beforeAll(() => {
  workdir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-demo-"));
});
afterAll(async () => {
  await stack("stop-emulator").catch(() => undefined);
  fs.rmSync(workdir, { recursive: true, force: true });
});

it("demo: up → a ready machine and its outputs; preview → no changes; destroy after an emulator restart → nothing left", async () => {
  const demo = await stack("demo");
  expect(demo).toMatch(/\+ create\s+pulumi-nodejs:dynamic\/vmapi:Machine trainer/);
  expect(demo).toMatch(/machine trainer-\w+ \(ps\w+\): ready \(\d+ s\)/);
  expect(demo).toMatch(/machineState\s+ready/);
  expect(demo).toMatch(/Machines at .* \(1\):\n\s+ps\w+\s+ready/);

  // The stack's state file holds the script (a secret) only encrypted, and never the API key.
  const stateFile = fs.readFileSync(path.join(workdir, "stacks", "quickstart-dev.json"), "utf8");
  expect(stateFile).not.toContain("apt-get install");
  expect(stateFile).not.toContain("dev-individual-key");
  expect(stateFile).toContain('"ciphertext": "v1:');

  expect(await stack("preview")).toContain("preview: no changes");
  // Refresh: the machine is as the state has it; the script now lists the machine it booted.
  const refresh = await stack("refresh");
  expect(refresh).toMatch(/~ refresh\s+pulumi-nodejs:dynamic\/vmapi:Machine trainer\n/);
  expect(refresh).toMatch(/Script setup \[changed: machines\]/);
  const plan = JSON.parse(await stack("preview", "--json")) as {
    steps: { op: string }[];
    changeSummary: unknown;
  };
  expect(plan.steps.map((s) => s.op)).toEqual(["same", "same"]);
  expect(plan.changeSummary).toEqual({ same: 2 });
  expect(await stack("outputs")).toMatch(/machineState\s+ready/);

  expect(await stack("stop-emulator")).toMatch(/stopped the emulator/);
  const destroy = await stack("destroy");
  expect(destroy).toMatch(/emulator started at/); // the same state file, a new process
  expect(destroy).toMatch(/- delete\s+pulumi-nodejs:dynamic\/vmapi:Machine trainer/);
  expect(await stack("machines")).toMatch(/\(0\):/);
}, 180_000);
