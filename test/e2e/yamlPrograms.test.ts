/**
 * Pulumi YAML programs on the plugin (`pulumi-resource-vmapi`), on the real engine with Pulumi
 * YAML's language host, through `npm run pulumi` (test/e2e/programs/yaml/*): the same resources
 * as the TypeScript classes, from the same implementations, with what only a native provider is
 * given: the engine's own `customTimeouts`, `pulumi import`, several accounts as several provider
 * resources, and secrets that stay secrets (the provider's key included).
 */
import * as fs from "fs";
import * as path from "path";
import { VmApiClient } from "../../src/client/client";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { REPO, expectExit, messages, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";
import { useTempDirs } from "../kit/tempDirs";

jest.setTimeout(300_000);

const YAML = path.join(PROGRAMS, "yaml");
const PLUGIN = path.join(REPO, "plugin");
const printed = (run: { stdout: string; stderr: string }) => run.stdout + run.stderr;
// The imports' programs and the saved plan: removed after each test, whether it passed or not.
const tempDir = useTempDirs();

describe("on the emulator at the tests' time scale", () => {
  const ctx = useE2eContext();

  const client = () => ctx.client({ env: {} });

  test("up: a Machine, its Script and a ResourceDelegation → in the API, ready, progress on the machine's row; preview → no changes; secrets never in plain text; destroy → nothing left", async () => {
    const stack = await ctx.stack(path.join(YAML, "basic"), ctx.emu.keys.individual, {
      scriptText: { secret: "echo hello-yaml" },
    });
    const up = expectExit(await stack.up());
    const outputs = await stack.outputs();
    const machineId = String(outputs.machineId);
    expect(outputs.machineName).toMatch(/^box-[a-z0-9]{7}$/);
    expect(outputs.currentState).toBe("ready");
    expect(outputs.token).toBe("[secret]");
    expect((outputs.templates as unknown[]).length).toBeGreaterThan(0);
    expect((await client().machines.get(machineId)).state).toBe("ready");
    const script = await client().scripts.get(String(outputs.scriptId));
    expect(script.machines?.map((m) => m.machineId)).toEqual([machineId]);
    // The wait's lines are the machine's own diagnostics.
    expect(
      up.events.some(
        (e) =>
          e.diagnosticEvent?.urn?.endsWith("::box") && /waiting for ready/.test(e.diagnosticEvent.message),
      ),
    ).toBe(true);
    // Created through the plugin: the types are the package's own.
    expect(
      steps(up)
        .map((s) => s.type)
        .sort(),
    ).toEqual(["vmapi:index:Machine", "vmapi:index:ResourceDelegation", "vmapi:index:Script"]);

    expectExit(await stack.preview("--expect-no-changes"));
    // A refresh that finds nothing changed leaves every resource's stored inputs as they were: no
    // key the program never declared (the machine's network, user, settings) is added, so the next
    // preview's and up's checked inputs equal the stored ones and the engine writes no state.
    // A secret is compared as a secret: the state holds it encrypted anew at every write.
    const storedInputs = async () =>
      JSON.parse(
        JSON.stringify(Object.fromEntries((await stack.resources()).map((r) => [r.urn, r.inputs]))),
        (_key, value: unknown) =>
          value !== null && typeof value === "object" && "ciphertext" in value ? "[secret]" : value,
      ) as unknown;
    const beforeRefresh = await storedInputs();
    expectExit(await stack.refresh());
    expect(await storedInputs()).toEqual(beforeRefresh);
    // A refresh that finds the machine stopped: the preview plans to start it, in place, and
    // nothing else (what depends on its id keeps it: the plugin previews its update).
    await client().machines.stop(machineId);
    await client().machines.waitFor(machineId, "off", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
    expectExit(await stack.refresh());
    const planned = steps(expectExit(await stack.preview())).map((s) => [s.name, s.op]);
    expect(planned.filter(([, op]) => op !== "same")).toEqual([["box", "update"]]);
    expectExit(await stack.up());
    expect((await client().machines.get(machineId)).state).toBe("ready");

    const state = stack
      .stateFiles()
      .map((file) => fs.readFileSync(file, "utf8"))
      .join("\n");
    expect(state).not.toContain(ctx.emu.keys.individual);
    expect(state).not.toContain("echo hello-yaml");
    expect(printed(up)).not.toContain(ctx.emu.keys.individual);

    expectExit(await stack.destroy());
    const dump = await ctx.emulator();
    expect(liveMachines(dump).map((m) => m.id)).not.toContain(machineId);
    expect(dump.scripts.map((s) => s.id)).not.toContain(outputs.scriptId);
  });

  test("pulumi import: a machine made outside the stack → no warning; its YAML, written into the program as printed, previews no changes and no warning; nothing was sent but reads", async () => {
    const made = await readyMachine(client(), "made-outside");
    const program = yamlProgram("vmapi-e2e-yaml-import", "resources: {}\n");
    const stack = await ctx.stack(program.dir, ctx.emu.keys.individual);
    const before = (await ctx.emulator()).requestCounts;
    const { code, run } = await importAsPrinted(stack, program, "vmapi:index:Machine", "imported", made.id);
    expect(code).toMatch(/type: vmapi(:index)?:Machine/);
    expect(code).toContain("region: Europe (AMS1)");
    expect(code).toContain("name: made-outside");
    // The API does not report a template, but the machine's OS is one template's only: it is told.
    expect(code).toContain(`templateId: ${SEEDED.headlessTemplate}`);
    expect(printed(run)).toMatch(/1 imported/);

    const preview = expectExit(await stack.preview("--expect-no-changes"));
    expect(warnings(preview)).toEqual([]);
    const after = (await ctx.emulator()).requestCounts;
    const writes = Object.keys(after).filter(
      (route) => route.startsWith("POST") && after[route] !== (before[route] ?? 0),
    );
    expect(writes).toEqual([]);
    expect((await stack.resources()).map((r) => r.id)).toEqual([made.id]);

    expectExit(await stack.destroy());
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(made.id);
  });

  test("pulumi import with a team key, whose templates leave a machine's template untold → no templateId printed, no warning; the program previews no changes", async () => {
    const team = ctx.client({ apiKey: ctx.emu.keys.teamAdmin, env: {} });
    const made = await readyMachine(team, "team-made-outside", {
      teamId: SEEDED.team,
      userId: SEEDED.member,
    });
    const program = yamlProgram("vmapi-e2e-yaml-import-team", "resources: {}\n");
    const stack = await ctx.stack(program.dir, ctx.emu.keys.teamAdmin);
    const { code } = await importAsPrinted(stack, program, "vmapi:index:Machine", "teamBox", made.id);
    expect(code).not.toContain("templateId");
    expect(warnings(expectExit(await stack.preview("--expect-no-changes")))).toEqual([]);
    expectExit(await stack.destroy());
  });

  test("pulumi import of a Script attached to a machine → no warning; its YAML as printed (the text read back) previews no changes and no warning", async () => {
    const machine = await readyMachine(client(), "script-host");
    const script = await client().scripts.create({
      scriptName: "imported-setup",
      scriptText: "#!/bin/bash\necho imported\n",
      machineId: machine.id,
    });
    const program = yamlProgram("vmapi-e2e-yaml-import-script", "resources: {}\n");
    const stack = await ctx.stack(program.dir, ctx.emu.keys.individual);
    const { code } = await importAsPrinted(stack, program, "vmapi:index:Script", "setup", script.id);
    expect(code).toContain("name: imported-setup");
    expect(code).toContain(`machineId: ${machine.id}`);
    expect(warnings(expectExit(await stack.preview("--expect-no-changes")))).toEqual([]);
    expect((await stack.resources()).map((r) => r.id)).toEqual([script.id]);
    expectExit(await stack.destroy());
  });

  test("two accounts as two provider resources → each machine made with its provider's key; the provider's key is a secret in state; destroy removes both", async () => {
    const stack = await ctx.stack(path.join(YAML, "accounts"), ctx.emu.keys.individual, {
      teamKey: { secret: ctx.emu.keys.teamAdmin },
      teamUserId: SEEDED.member,
      teamId: SEEDED.team,
      apiUrl: ctx.emu.url,
    });
    expectExit(await stack.up());
    const outputs = await stack.outputs();
    const machines = liveMachines(await ctx.emulator());
    const mine = machines.find((m) => m.id === outputs.mine);
    const theirs = machines.find((m) => m.id === outputs.theirs);
    expect(mine).toMatchObject({ userId: SEEDED.individualUser, teamId: null });
    expect(theirs).toMatchObject({ userId: SEEDED.member, teamId: SEEDED.team });
    const state = stack
      .stateFiles()
      .map((file) => fs.readFileSync(file, "utf8"))
      .join("\n");
    expect(state).not.toContain(ctx.emu.keys.teamAdmin);
    expect(state).not.toContain(ctx.emu.keys.individual);

    expectExit(await stack.destroy());
    const live = liveMachines(await ctx.emulator()).map((m) => m.id);
    expect(live).not.toContain(outputs.mine);
    expect(live).not.toContain(outputs.theirs);
  });

  test("replaceOnChanges and ignoreChanges, applied by the engine to the plugin's property-level diff: a rename replaces, naming the input; an ignored input is no change", async () => {
    const stack = await ctx.stack(path.join(YAML, "options"), ctx.emu.keys.individual, {
      machineName: "opt-a",
    });
    expectExit(await stack.up());
    const first = String((await stack.outputs()).machineId);

    await stack.setConfig({ shutdownHours: "5" });
    expectExit(await stack.preview("--expect-no-changes"));

    await stack.setConfig({ machineName: "opt-b" });
    const diff = expectExit(await stack.cli(["preview", "--diff"]));
    expect(diff.stdout).toMatch(/~ name\s*: "opt-a" => "opt-b"/);
    const planned = steps(expectExit(await stack.preview())).filter((s) => s.name === "box");
    expect(planned.map((s) => s.op)).toContain("replace");
    expect(planned.find((s) => s.op === "replace")?.keys).toEqual(["name"]);
    expectExit(await stack.up());
    const second = String((await stack.outputs()).machineId);
    expect(second).not.toBe(first);
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(first);
    expectExit(await stack.destroy());
  });

  test("preview --save-plan, then up --plan → the machine gets the auto-name the plan holds (drawn from the engine's seed)", async () => {
    const stack = await ctx.stack(path.join(YAML, "killedMachine"), ctx.emu.keys.individual);
    const plan = path.join(tempDir("vmapi-plan-"), "plan.json");
    const preview = expectExit(await stack.cli(["preview", "--save-plan", plan], { events: true }));
    const planned = steps(preview).find((s) => s.name === "box")?.new?.inputs?.name;
    expect(planned).toMatch(/^box-[a-z0-9]{7}$/);
    expectExit(await stack.up("--plan", plan));
    const [box] = await stack.resources();
    expect(box.outputs?.name).toBe(planned);
    expectExit(await stack.destroy());
  });

  test("preview: a size the API refuses → fails naming size and its bound; nothing created", async () => {
    const stack = await ctx.stack(path.join(YAML, "badInput"), ctx.emu.keys.individual);
    const creates = () => ctx.received("POST /machines/createSingleMachinePublic");
    const before = await creates();
    const preview = await stack.preview();
    expect(preview.code).not.toBe(0);
    expect(messages(preview).join("\n")).toMatch(/size.*2000/);
    expect(await creates()).toBe(before);
  });
});

describe("on an emulator whose provisioning takes 6 s", () => {
  const ctx = useE2eContext({ timeScale: 0.1 });

  test("customTimeouts.create 2s, shorter than the provisioning → the create fails naming that timeout; the machine stays in the stack; destroy removes it", async () => {
    const stack = await ctx.stack(path.join(YAML, "timeout"), ctx.emu.keys.individual);
    const up = await stack.up();
    expect(up.code).not.toBe(0);
    expect(printed(up)).toMatch(/customTimeouts\.create \(2000ms\)/);
    const [slow] = await stack.resources();
    expect(slow.id).toMatch(/^ps/);
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toContain(slow.id);
    expectExit(await stack.destroy());
    expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(slow.id);
  });
});

/** A machine made through `api` outside any stack, waited for until ready. */
async function readyMachine(
  api: VmApiClient,
  name: string,
  extra: { teamId?: string; userId?: string } = {},
) {
  const made = await api.machines.create({
    ...MACHINE_BASICS,
    ...extra,
    region: "Europe (AMS1)",
    machineName: name,
    templateId: SEEDED.headlessTemplate,
  });
  await api.machines.waitFor(made.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  return made;
}

/** The engine's warnings in a run's events. */
function warnings(run: CliRun): string[] {
  return run.events
    .filter((e) => e.diagnosticEvent?.severity === "warning")
    .map((e) => e.diagnosticEvent!.message.trim());
}

/**
 * `pulumi import <type> <name> <id>` into `stack`, which must print no warning, then the code it
 * generated written into the program as printed (nothing filled in or removed).
 */
async function importAsPrinted(
  stack: EngineStack,
  program: { dir: string; write(body: string): void },
  type: string,
  name: string,
  id: string,
): Promise<{ code: string; run: CliRun }> {
  const generated = path.join(program.dir, "generated.yaml");
  const run = expectExit(
    await stack.cli(["import", type, name, id, "--yes", "--protect=false", "--out", generated], {
      events: true,
    }),
  );
  expect(printed(run)).not.toMatch(/failed to validate|warning/i);
  expect(warnings(run)).toEqual([]);
  const code = fs.readFileSync(generated, "utf8");
  fs.rmSync(generated);
  program.write(code);
  return { code, run };
}

/**
 * A YAML program in a folder of its own (removed after the test), naming this repository's
 * plugin, with `resources`.
 */
function yamlProgram(name: string, resources: string): { dir: string; write(body: string): void } {
  const dir = tempDir("vmapi-yaml-");
  const header = `name: ${name}\nruntime: yaml\nplugins:\n  providers:\n    - name: vmapi\n      path: ${PLUGIN}\n`;
  const write = (body: string) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), header + body);
  write(resources);
  return { dir, write };
}
