/**
 * From Terraform to Pulumi without touching a machine (docs/migrating-from-terraform.md), on the
 * real CLI: `pulumi import --from vmapi <state>` through this package's converter plugin
 * (plugin/pulumi-converter-vmapi, found on PATH) into a Pulumi YAML stack, the generated code
 * written into the program as printed, then a preview with no changes. The state is
 * test/fixtures/terraform/fleet.tfstate (written from the Paperspace provider's schema: machines
 * with and without a script, a module with `count`, a `for_each` map, a network, an autoscaling
 * group, data sources and another provider's bucket), its ids those of machines and scripts made
 * in the emulator first. Between the import and the preview the API sees nothing but reads.
 */
import * as fs from "fs";
import * as path from "path";
import { PROGRAMS, useE2eContext } from "./support/kit";
import { REPO, expectExit, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { MACHINE_BASICS } from "../kit/machines";
import { SEEDED } from "../kit/seeded";
import { FLEET_IMPORTED_NAMES } from "../kit/terraformFleet";
import { useTempDirs } from "../kit/tempDirs";
import type { VmApiClient } from "../../src/client/client";

jest.setTimeout(300_000);

const PLUGIN = path.join(REPO, "plugin");
const FIXTURES = path.join(REPO, "test", "fixtures", "terraform");
const printed = (run: { stdout: string; stderr: string }) => run.stdout + run.stderr;
const tempDir = useTempDirs();
const ctx = useE2eContext();

/** Requests that change something (every method but GET), by route. */
function writes(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([route]) => !route.startsWith("GET ")));
}

/** GET requests, by route: how many more in `after` than in `before`. */
function moreReads(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .filter(([route, n]) => route.startsWith("GET ") && n !== (before[route] ?? 0))
      .map(([route, n]) => [route, n - (before[route] ?? 0)]),
  );
}

async function readyMachine(api: VmApiClient, name: string, scriptId?: string): Promise<string> {
  const made = await api.machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: SEEDED.headlessTemplate,
    ...(scriptId === undefined ? {} : { scriptId }),
  });
  await api.machines.waitFor(made.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  return made.id;
}

/** The fixture's placeholders (`{{trainer}}`, ...) made real: scripts and machines in the emulator. */
async function realIds(api: VmApiClient, prefix: string): Promise<Record<string, string>> {
  const setup = await api.scripts.create({
    scriptName: `${prefix}-setup`,
    scriptText: "#!/bin/bash\napt-get update\n",
  });
  const spare = await api.scripts.create({
    scriptName: `${prefix}-spare`,
    scriptText: "#!/bin/bash\necho spare\n",
  });
  const names = ["box", "fleet_us", "fleet_eu", "gpu0", "gpu1"];
  const machines = await Promise.all([
    readyMachine(api, `${prefix}-trainer`, setup.id),
    ...names.map((n) => readyMachine(api, `${prefix}-${n}`)),
  ]);
  return {
    setup: setup.id,
    spare: spare.id,
    trainer: machines[0],
    ...Object.fromEntries(names.map((n, i) => [n, machines[i + 1]])),
    template: SEEDED.headlessTemplate,
  };
}

function withIds(text: string, ids: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => ids[key] ?? `unknown-${key}`);
}

/** Writes the fleet fixture with `ids` as `dir`/terraform.tfstate; gives its path. */
function fleetState(dir: string, ids: Record<string, string>): string {
  const state = path.join(dir, "terraform.tfstate");
  fs.writeFileSync(state, withIds(fs.readFileSync(path.join(FIXTURES, "fleet.tfstate"), "utf8"), ids));
  return state;
}

/** A YAML program naming this repository's plugin, with `body` after its header. */
function yamlProgram(name: string): { dir: string; write(body: string): void } {
  const dir = tempDir("vmapi-tf-");
  const header = `name: ${name}\nruntime: yaml\nplugins:\n  providers:\n    - name: vmapi\n      path: ${PLUGIN}\n`;
  const write = (body: string) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), header + body);
  write("resources: {}\n");
  return { dir, write };
}

/** `pulumi import --from vmapi <state>` on `stack`, the converter on PATH and the API's settings in its environment. */
function importFrom(stack: EngineStack, state: string, generated: string): Promise<CliRun> {
  return stack.cli(["import", "--from", "vmapi", state, "--yes", "--protect=false", "--out", generated], {
    events: true,
    env: converterEnv(),
  });
}

/** The converter on PATH and the API's settings in the environment (the stacks' own come from their config). */
function converterEnv(): NodeJS.ProcessEnv {
  return {
    PATH: `${PLUGIN}${path.delimiter}${process.env.PATH ?? ""}`,
    VMAPI_API_KEY: ctx.emu.keys.individual,
    VMAPI_BASE_URL: ctx.emu.url,
    VMAPI_POLL_SCALE: String(ctx.timeScale),
  };
}

/** The engine's warnings in a run's events. */
function warnings(run: CliRun): string[] {
  return run.events
    .filter((e) => e.diagnosticEvent?.severity === "warning")
    .map((e) => e.diagnosticEvent!.message.trim());
}

/** `code` with input `key` of resource `name` set to `value` (a line of YAML), or removed when undefined. */
function withInput(code: string, name: string, key: string, value: string | undefined): string {
  const line = new RegExp(`(^  ${name}:\\n(?:    .*\\n)*?)      ${key}: .*\\n`, "m");
  return code.replace(line, value === undefined ? "$1" : `$1      ${key}: ${value}\n`);
}

/** The YAML block of resource `name` in generated code. */
function block(code: string, name: string): string {
  const match = new RegExp(`^  ${name}:\\n((?:    .*\\n)+)`, "m").exec(code);
  return match === null ? "" : match[1];
}

test("import --from vmapi: the fleet state (6 machines, 2 scripts, and what has no counterpart) → every machine and script imported under its address's name, the rest listed with its reason; the YAML as printed previews no changes; the first up does nothing; the API saw only reads", async () => {
  const api = ctx.client({ env: {} });
  const ids = await realIds(api, "tf");
  const program = yamlProgram("vmapi-e2e-terraform");
  const state = fleetState(program.dir, ids);
  const stack = await ctx.stack(program.dir, ctx.emu.keys.individual);
  const generated = path.join(program.dir, "generated.yaml");

  const before = (await ctx.emulator()).requestCounts;
  const run = expectExit(await importFrom(stack, state, generated));
  const out = printed(run);
  expect(out).toMatch(/8 imported/);
  for (const address of [
    "data.paperspace_template.ubuntu",
    "data.paperspace_user.me",
    "paperspace_network.private",
    "paperspace_autoscaling_group.pool",
    "aws_s3_bucket.logs",
  ]) {
    expect(out).toContain(`${address} is not imported`);
  }
  expect(out).not.toContain(ctx.emu.keys.individual);
  const code = fs.readFileSync(generated, "utf8");
  fs.rmSync(generated);
  for (const name of FLEET_IMPORTED_NAMES)
    expect(block(code, name)).toMatch(/type: vmapi(:index)?:(Machine|Script)/);
  // The script the machine names in script_id stays attached: the machine names it, and the API
  // reports it on the script too (the CLI writes the two ids as they are: references both ways
  // would be a cycle).
  expect(block(code, "trainer")).toContain(`scriptId: ${ids.setup}`);
  expect(block(code, "setup")).toContain(`machineId: ${ids.trainer}`);
  expect(block(code, "spare")).not.toContain("machineId");
  expect(block(code, "box")).not.toContain("scriptId");

  program.write(code);
  const preview = expectExit(await stack.preview("--expect-no-changes"));
  expect(warnings(preview)).toEqual([]);
  expect(
    steps(preview)
      .map((s) => s.op)
      .filter((op) => op !== "same"),
  ).toEqual([]);
  const after = (await ctx.emulator()).requestCounts;
  expect(writes(after)).toEqual(writes(before));
  expect((await stack.resources()).map((r) => [r.urn.split("::").pop(), r.id]).sort()).toEqual(
    [
      ["setup", ids.setup],
      ["spare", ids.spare],
      ["trainer", ids.trainer],
      ["box", ids.box],
      ["fleet_us_east", ids.fleet_us],
      ["fleet_eu_ams", ids.fleet_eu],
      ["gpu_0_worker", ids.gpu0],
      ["gpu_1_worker", ids.gpu1],
    ].sort(),
  );
  console.log(`fleet: reads from import to preview ${JSON.stringify(moreReads(before, after))}`);
  // The attachment written as a reference, on either side (docs: "A machine's script"): still no change.
  const referenced = [
    withInput(withInput(code, "setup", "machineId", undefined), "trainer", "scriptId", "${setup.id}"),
    withInput(withInput(code, "trainer", "scriptId", undefined), "setup", "machineId", "${trainer.id}"),
  ];
  for (const edited of referenced) {
    expect(edited).not.toEqual(code);
    program.write(edited);
    expect(warnings(expectExit(await stack.preview("--expect-no-changes")))).toEqual([]);
  }
  program.write(code);
  // The first up after the import: nothing to do, nothing written.
  const up = expectExit(await stack.up());
  expect(steps(up).filter((s) => s.op !== "same")).toEqual([]);
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));
});

/** An entry of the document `--generate-resources` writes (what the converter answered). */
interface Answered {
  type: string;
  name: string;
  id: string;
}

test("TypeScript on the dynamic classes: the fleet state → the converter's --preview-only document names each machine and id, nothing imported; each Machine declared with adoptMachineId and the inputs the API reports → the preview plans adoptions alone, the first up adopts all 6 with their ids, nothing written; the next preview shows no changes; the scripts, imported beside in YAML from the same document, preview no changes", async () => {
  const api = ctx.client({ env: {} });
  const ids = await realIds(api, "ts");
  // The Pulumi YAML project beside, which will hold the scripts, answers the names and ids:
  // --preview-only imports nothing. (The CLI generates code in its project's language, and the
  // CLI built here has no Node.js host to do so in the TypeScript project.)
  const beside = yamlProgram("vmapi-e2e-terraform-scripts");
  const state = fleetState(beside.dir, ids);
  const yamlStack = await ctx.stack(beside.dir, ctx.emu.keys.individual);
  const stack = await ctx.stack(path.join(PROGRAMS, "adopted"), ctx.emu.keys.individual);
  const before = (await ctx.emulator()).requestCounts;
  const document = path.join(beside.dir, "import.json");
  expectExit(
    await yamlStack.cli(
      ["import", "--from", "vmapi", state, "--preview-only", "--generate-resources", document],
      { env: converterEnv() },
    ),
  );
  expect(await yamlStack.resources()).toEqual([]);
  const answered = (JSON.parse(fs.readFileSync(document, "utf8")) as { resources: Answered[] }).resources;
  const machines = answered.filter((r) => r.type === "vmapi:index:Machine");
  expect(machines.map((r) => [r.name, r.id]).sort()).toEqual(
    [
      ["trainer", ids.trainer],
      ["box", ids.box],
      ["fleet_us_east", ids.fleet_us],
      ["fleet_eu_ams", ids.fleet_eu],
      ["gpu_0_worker", ids.gpu0],
      ["gpu_1_worker", ids.gpu1],
    ].sort(),
  );

  // Each machine with the inputs the API reports (its name too), and its template (which the API
  // does not report) from the state.
  const declared = await Promise.all(
    machines.map(async ({ name, id }) => {
      const m = await api.machines.get(id);
      return {
        name,
        id,
        inputs: {
          name: m.name,
          region: m.region,
          machineType: m.machineType,
          size: Number(m.storageTotal) / 2 ** 30,
          billingType: m.usageRate.split(" ").pop(),
          templateId: ids.template,
          ...(m.scriptId ? { scriptId: m.scriptId } : {}),
        },
      };
    }),
  );
  expect(declared.find((m) => m.name === "trainer")?.inputs).toMatchObject({
    name: "ts-trainer",
    scriptId: ids.setup,
    ...MACHINE_BASICS,
  });
  await stack.setConfig({ machines: JSON.stringify(declared) });

  const preview = expectExit(await stack.preview());
  expect(warnings(preview)).toEqual([]);
  expect(steps(preview).map((s) => s.op)).toEqual(machines.map(() => "create"));
  const up = expectExit(await stack.up());
  expect(warnings(up)).toEqual([]);
  expect(steps(up).map((s) => [s.op, s.failed])).toEqual(machines.map(() => ["create", false]));
  // The adoptions sent nothing but reads.
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));
  expect((await stack.resources()).map((r) => [r.urn.split("::").pop(), r.id]).sort()).toEqual(
    machines.map((r) => [r.name, r.id]).sort(),
  );
  const again = expectExit(await stack.preview("--expect-no-changes"));
  expect(warnings(again)).toEqual([]);
  expect(steps(again).filter((s) => s.op !== "same")).toEqual([]);
  // Every machine as it was: its name, still ready.
  const live = new Map((await ctx.emulator()).machines.map((m) => [m.id, m]));
  for (const m of declared)
    expect([live.get(m.id)?.name, live.get(m.id)?.state]).toEqual([m.inputs.name, "ready"]);

  // The scripts, on a Pulumi YAML program beside, imported from the same document.
  const scripts = answered.filter((r) => r.type === "vmapi:index:Script");
  expect(scripts.map((r) => [r.name, r.id]).sort()).toEqual([
    ["setup", ids.setup],
    ["spare", ids.spare],
  ]);
  const scriptsFile = path.join(beside.dir, "scripts.json");
  fs.writeFileSync(scriptsFile, JSON.stringify({ resources: scripts }));
  const generated = path.join(beside.dir, "generated.yaml");
  expectExit(
    await yamlStack.cli(["import", "--file", scriptsFile, "--yes", "--protect=false", "--out", generated]),
  );
  const code = fs.readFileSync(generated, "utf8");
  fs.rmSync(generated);
  expect(block(code, "setup")).toContain(`machineId: ${ids.trainer}`);
  beside.write(code);
  expect(warnings(expectExit(await yamlStack.preview("--expect-no-changes")))).toEqual([]);

  const after = (await ctx.emulator()).requestCounts;
  expect(writes(after)).toEqual(writes(before));
  console.log(
    `TypeScript route: reads from the converter to the last preview ${JSON.stringify(moreReads(before, after))}`,
  );
});

test.each([
  [
    "a newer state format",
    '{"version": 5, "resources": []}',
    /terraform\.tfstate:1,1-1: version; state format version 5 is newer than 4/,
  ],
  ["a malformed state", '{"version": 4, "resources": [', /terraform\.tfstate:1,1-1: the state; not JSON/],
  [
    "a state of another provider only",
    JSON.stringify({
      version: 4,
      resources: [
        {
          mode: "managed",
          type: "aws_instance",
          name: "web",
          provider: 'provider["registry.terraform.io/hashicorp/aws"]',
          instances: [{ attributes: { id: "i-0abc" } }],
        },
      ],
    }),
    /the state; it holds no resource of the Paperspace provider/,
  ],
])(
  "import --from vmapi: %s → fails saying what is wrong; nothing imported, no request to the API",
  async (_, text, message) => {
    const program = yamlProgram("vmapi-e2e-terraform-bad");
    const state = path.join(program.dir, "terraform.tfstate");
    fs.writeFileSync(state, text);
    const stack = await ctx.stack(program.dir, ctx.emu.keys.individual);
    const before = (await ctx.emulator()).requestCounts;
    const run = await importFrom(stack, state, path.join(program.dir, "generated.yaml"));
    expect(run.code).not.toBe(0);
    expect(printed(run)).toMatch(message);
    expect(printed(run)).toMatch(/conversion failed/);
    expect(await stack.resources()).toEqual([]);
    expect((await ctx.emulator()).requestCounts).toEqual(before);
  },
);

test("import --from vmapi: a machine the API does not know → fails naming its address; nothing imported, nothing written, no key printed", async () => {
  const api = ctx.client({ env: {} });
  const ids = { ...(await realIds(api, "gone")), gpu1: "psgone000" };
  const program = yamlProgram("vmapi-e2e-terraform-gone");
  const state = fleetState(program.dir, ids);
  const stack = await ctx.stack(program.dir, ctx.emu.keys.individual);
  const before = (await ctx.emulator()).requestCounts;
  const run = await importFrom(stack, state, path.join(program.dir, "generated.yaml"));
  expect(run.code).not.toBe(0);
  const out = printed(run);
  expect(out).toMatch(
    /terraform\.tfstate:\d+,1-1: module\.gpu\[1\]\.paperspace_machine\.worker; the API does not know its id psgone000/,
  );
  expect(out).toMatch(/conversion failed/);
  expect(out).not.toContain(ctx.emu.keys.individual);
  expect(await stack.resources()).toEqual([]);
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));
});

/** A state of `machines` (count-indexed, in a for_each module `team`) and `scripts`, machine i running script i. */
function teamState(machines: string[][], scripts: string[]): string {
  const provider = 'provider["registry.terraform.io/paperspace/paperspace"]';
  const resources = [
    {
      mode: "managed",
      type: "paperspace_script",
      name: "boot",
      provider,
      instances: scripts.map((id, i) => ({ index_key: i, attributes: { id, name: `boot-${i}` } })),
    },
    ...["a", "b"].map((team, t) => ({
      module: `module.team["${team}"]`,
      mode: "managed",
      type: "paperspace_machine",
      name: "node",
      provider,
      instances: machines[t].map((id, i) => ({
        index_key: i,
        attributes: { id, template_id: SEEDED.headlessTemplate, script_id: t === 0 ? scripts[i] : null },
      })),
    })),
  ];
  return JSON.stringify({ version: 4, terraform_version: "1.9.0", serial: 1, resources }, null, 2);
}

/**
 * Machines in the state of the side-by-side test: 20, or VMAPI_TERRAFORM_MACHINES (an even number;
 * half as many scripts), e.g. 200 to measure the migration of a larger fleet.
 */
const FLEET = Number(process.env.VMAPI_TERRAFORM_MACHINES ?? 20);
const PER_TEAM = FLEET / 2;

test(`${FLEET} machines and ${PER_TEAM} scripts: import --from vmapi beside import --file of the same ids written by hand → the same ${FLEET + PER_TEAM} imported; its preview shows no changes; the converter's own requests and the time of each printed`, async () => {
  const api = ctx.client({ env: {} });
  const scripts: string[] = [];
  for (let i = 0; i < PER_TEAM; i++)
    scripts.push(
      (await api.scripts.create({ scriptName: `team-boot-${i}`, scriptText: `#!/bin/bash\necho ${i}\n` })).id,
    );
  const machines = await Promise.all(
    ["a", "b"].map((team, t) =>
      Promise.all(
        Array.from({ length: PER_TEAM }, (_, i) =>
          readyMachine(api, `team-${team}-${i}`, t === 0 ? scripts[i] : undefined),
        ),
      ),
    ),
  );

  const fromProgram = yamlProgram("vmapi-e2e-terraform-team");
  const state = path.join(fromProgram.dir, "terraform.tfstate");
  fs.writeFileSync(state, teamState(machines, scripts));
  const fromStack = await ctx.stack(fromProgram.dir, ctx.emu.keys.individual);
  const generated = path.join(fromProgram.dir, "generated.yaml");
  const total = async () => Object.values((await ctx.emulator()).requestCounts).reduce((a, b) => a + b, 0);

  // What the converter answers, kept for review without importing anything (docs: --generate-resources).
  const answered = path.join(fromProgram.dir, "answered.json");
  expectExit(
    await fromStack.cli(
      ["import", "--from", "vmapi", state, "--preview-only", "--generate-resources", answered],
      {
        env: converterEnv(),
      },
    ),
  );
  const listed = (
    JSON.parse(fs.readFileSync(answered, "utf8")) as { resources: { name: string; id: string }[] }
  ).resources;
  expect(listed).toHaveLength(FLEET + PER_TEAM);
  expect(listed.find((r) => r.name === `team_b_node_${PER_TEAM - 1}`)?.id).toBe(machines[1][PER_TEAM - 1]);
  expect(await fromStack.resources()).toEqual([]);

  const startFrom = await total();
  let started = Date.now();
  const from = expectExit(await importFrom(fromStack, state, generated));
  const fromMs = Date.now() - started;
  const fromRequests = (await total()) - startFrom;
  expect(printed(from)).toContain(`${FLEET + PER_TEAM} imported`);

  // The same resources, written by hand as `pulumi import --file` takes them.
  const byHand = {
    resources: [
      ...scripts.map((id, i) => ({ type: "vmapi:index:Script", name: `boot_${i}`, id })),
      ...["a", "b"].flatMap((team, t) =>
        machines[t].map((id, i) => ({ type: "vmapi:index:Machine", name: `team_${team}_node_${i}`, id })),
      ),
    ],
  };
  const fileProgram = yamlProgram("vmapi-e2e-terraform-file");
  const file = path.join(fileProgram.dir, "import.json");
  fs.writeFileSync(file, JSON.stringify(byHand));
  const fileStack = await ctx.stack(fileProgram.dir, ctx.emu.keys.individual);
  const startFile = await total();
  started = Date.now();
  expectExit(
    await fileStack.cli([
      "import",
      "--file",
      file,
      "--yes",
      "--protect=false",
      "--out",
      path.join(fileProgram.dir, "g.yaml"),
    ]),
  );
  const fileMs = Date.now() - started;
  const fileRequests = (await total()) - startFile;

  const code = fs.readFileSync(generated, "utf8");
  fs.rmSync(generated);
  expect((await fromStack.resources()).map((r) => r.urn.split("::").pop()).sort()).toEqual(
    byHand.resources.map((r) => r.name).sort(),
  );
  fromProgram.write(code);
  const before = (await ctx.emulator()).requestCounts;
  const preview = expectExit(await fromStack.preview("--expect-no-changes"));
  expect(warnings(preview)).toEqual([]);
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));
  console.log(
    `${FLEET} machines, ${PER_TEAM} scripts: --from vmapi ${fromMs} ms, ${fromRequests} requests; --file ${fileMs} ms, ${fileRequests} requests; ratio ${(fromMs / fileMs).toFixed(2)}`,
  );
  // The converter's own requests: what --from sent beyond --file's engine reads.
  expect(fromRequests - fileRequests).toBeLessThanOrEqual(10);
});
