/**
 * State written by version 0.1.0 keeps working on the real engine. The fixture is a `stack export`
 * of test/e2e/programs/machine made by 0.1.0: its `__provider` text is that version's stub,
 * which captured the absolute path of the machine that ran the program (a folder that does not
 * exist here) and resolves the runtime by package name first. Refresh, preview and destroy run
 * the old text against today's runtime.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { VmApiClient } from "../../src";
import { E2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { steps } from "./support/cli";
import type { EngineStack } from "./support/engineStack";

jest.setTimeout(180_000);

const FIXTURE = path.join(__dirname, "fixtures", "machine-stack-0.1.0.json");
/** The runtime's absolute path that 0.1.0 captured, and a folder of another machine in its place. */
const WRITER_PATH = "/work/main/dist/provider/runtime.js";
const ELSEWHERE = "/home/someone-else/infra/node_modules/pulumi-vmapi/dist/provider/runtime.js";

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await E2eContext.start();
});
afterAll(() => ctx.close());

/**
 * The fixture rewritten for `stack`: its name, the emulator, the machine's id, and the key
 * encrypted by the stack's own passphrase. State holds secrets JSON-encoded, so the key is set
 * once more as a secret config value in that form, to read its ciphertext, then removed.
 */
async function deploymentFor(stack: EngineStack, machineId: string): Promise<string> {
  await stack.setConfig({ stateFormKey: { secret: JSON.stringify(ctx.emu.keys.individual) } });
  const stackConfig = fs.readFileSync(path.join(stack.programDir, `Pulumi.${stack.name}.yaml`), "utf8");
  await stack.removeConfig("stateFormKey");
  const salt = /^encryptionsalt: (\S+)$/m.exec(stackConfig)![1];
  const keyCiphertext = /stateFormKey:\s+secure: (\S+)/.exec(stackConfig)![1];
  const encryptedKey = JSON.stringify({
    "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    ciphertext: keyCiphertext,
  });
  const deployment = JSON.parse(
    fs
      .readFileSync(FIXTURE, "utf8")
      .replaceAll("__STACK__", stack.name)
      .replaceAll("__MACHINE_ID__", machineId)
      .replaceAll("__BASE_URL__", ctx.emu.url)
      .replaceAll('"__API_KEY__"', encryptedKey)
      // The machine that wrote it: its folder is nowhere here, so the runtime must resolve by package name.
      .replaceAll(WRITER_PATH, ELSEWHERE),
  );
  deployment.deployment.secrets_providers = { type: "passphrase", state: { salt } };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-old-state-")), "state.json");
  fs.writeFileSync(file, JSON.stringify(deployment));
  return file;
}

test("0.1.0 state: refresh keeps the machine, preview plans no replace and shows no internal input, destroy deletes it", async () => {
  const fixture = fs.readFileSync(FIXTURE, "utf8");
  expect(fixture).toContain(`absolutePath: \\"${WRITER_PATH}\\"`);
  expect(fs.existsSync(path.dirname(ELSEWHERE))).toBe(false);
  const client = new VmApiClient({ apiKey: ctx.emu.keys.individual, baseUrl: ctx.emu.url });
  const machine = await client.machines.create({
    region: "East Coast (NY2)",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    machineName: "old-state",
    templateId: "tubsrv01",
  });
  await client.machines.waitFor(machine.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual, {
    name: "old-state",
  });
  await stack.ok(["stack", "import", "--file", await deploymentFor(stack, machine.id)]);

  const refresh = await stack.refresh();
  expect(refresh.code).toBe(0);
  expect((await stack.resources()).map((r) => r.id)).toEqual([machine.id]);

  // Resource options that 0.1.0 never stored travel as internal inputs: never a change, never shown.
  await stack.setConfig({
    customTimeouts: JSON.stringify({ create: "20m", update: "20m", delete: "20m" }),
    replaceOnChanges: JSON.stringify(["region"]),
  });
  const preview = await stack.preview("--diff");
  expect(preview.code).toBe(0);
  expect(steps(preview).filter((s) => s.op !== "same" && s.op !== "update")).toEqual([]);
  expect(
    steps(preview)
      .flatMap((s) => s.diffs ?? [])
      .filter((key) => key.startsWith("__")),
  ).toEqual([]);
  expect(preview.stdout).not.toMatch(/__customTimeouts|__replaceOnChanges|customTimeouts/);

  const destroy = await stack.destroy();
  expect(destroy.code).toBe(0);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(machine.id);
});
