/**
 * Every example on the real engine, as a user runs it: preview, up, `preview --expect-no-changes`,
 * refresh without changes, destroy with nothing left in the emulator.
 */
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, EXAMPLES, liveMachines, subfolders } from "./support/kit";
import { expectExit, steps, summary } from "./support/cli";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(180_000);

const ctx = useE2eContext();

const CREATE = "POST /machines/createSingleMachinePublic";

/** Every output a Machine declares, present in state after `up`. */
const MACHINE_OUTPUTS = [
  "machineId",
  "currentState",
  "os",
  "ram",
  "cpus",
  "publicIpAddress",
  "events",
  "dtCreated",
];

test("quickstart: preview, up, preview, refresh, destroy → plan, ready machine, no changes, no drift, nothing left", async () => {
  const stack = await ctx.stack(path.join(EXAMPLES, "quickstart"), ctx.emu.keys.individual);

  // The script's machineId is unknown until the machine exists: check must accept it.
  const plan = await stack.preview();
  expectExit(plan);
  expect(steps(plan).map((s) => [s.op, s.name])).toEqual([
    ["create", "trainer"],
    ["create", "setup"],
  ]);
  expect((await ctx.emulator()).requestCounts[CREATE]).toBeUndefined();

  const up = await stack.up();
  expect(up.code).toBe(0);
  expect(summary(up).resourceChanges).toEqual({ create: 3 });
  const outputs = await stack.outputs();
  expect(outputs).toMatchObject({
    machineId: expect.stringMatching(/^ps/),
    machineState: "ready",
    publicIp: expect.stringMatching(/^198\.1[89]\./),
    scriptId: expect.stringMatching(/^sc/),
    machineName: expect.stringMatching(/^trainer-[a-z0-9]{7}$/),
    scriptName: expect.stringMatching(/^setup-[a-z0-9]{7}$/),
  });
  // The provider's progress reaches the engine's display.
  expect(up.stdout).toContain(`(${String(outputs.machineId)}): ready`);
  const machines = liveMachines(await ctx.emulator());
  expect(machines.map((m) => [m.id, m.state, m.scriptId])).toEqual([
    [outputs.machineId, "ready", outputs.scriptId],
  ]);
  const trainer = (await stack.resources()).find((r) => r.urn.endsWith("::trainer"))!;
  expect(Object.keys(trainer.outputs!)).toEqual(expect.arrayContaining(MACHINE_OUTPUTS));

  const again = await stack.preview("--expect-no-changes");
  expect(again.code).toBe(0);
  const refresh = await stack.refresh();
  expect(refresh.code).toBe(0);
  expect(summary(refresh).resourceChanges).toEqual({ same: 3 });

  const destroy = await stack.destroy();
  expect(destroy.code).toBe(0);
  expect(steps(destroy).map((s) => [s.op, s.name])).toEqual([
    ["delete", "setup"],
    ["delete", "trainer"],
  ]);
  const after = await ctx.emulator();
  expect(liveMachines(after)).toEqual([]);
  expect(after.scripts).toEqual([]);
  expect(await stack.resources()).toEqual([]);
});

test("team: up, preview, refresh, destroy as team admin → machines, access, delegation, then nothing left", async () => {
  const stack = await ctx.stack(path.join(EXAMPLES, "team"), ctx.emu.keys.teamAdmin, {
    teamId: SEEDED.team,
    newUserPassword: { secret: "s3cret-Passw0rd" },
  });

  const up = await stack.up();
  expect(up.code).toBe(0);
  expect(summary(up).resourceChanges).toEqual({ create: 5 });
  const { workstationId, newHireId, streamingToken } = await stack.outputs();
  expect(streamingToken).toBe("[secret]");
  const dump = await ctx.emulator();
  const byId = new Map(liveMachines(dump).map((m) => [m.id, m]));
  expect(byId.get(workstationId as string)).toMatchObject({ state: "ready" });
  expect(byId.get(newHireId as string)).toMatchObject({ state: "off" });
  expect(dump.accessGrants.map((g) => g.machineId)).toEqual([workstationId]);

  expect((await stack.preview("--expect-no-changes")).code).toBe(0);
  expect(summary(await stack.refresh()).resourceChanges).toEqual({ same: 5 });

  expect((await stack.destroy()).code).toBe(0);
  const after = await ctx.emulator();
  expect(liveMachines(after)).toEqual([]);
  expect(after.accessGrants).toEqual([]);
});

test("team: config missing → preview names the missing key, nothing created", async () => {
  const stack = await ctx.stack(path.join(EXAMPLES, "team"), ctx.emu.keys.teamAdmin, {
    newUserPassword: { secret: "s3cret-Passw0rd" },
  });
  const createsBefore = await ctx.received(CREATE);
  const preview = await stack.preview();
  expect(preview.code).not.toBe(0);
  expect(preview.stdout + preview.stderr).toMatch(
    /missing (a )?config(uration)? value.*teamId|teamId.*missing/is,
  );
  expect(await ctx.received(CREATE)).toBe(createsBefore);
});

test("data-sources: up, preview, refresh, destroy → a GPU machine on the region's network, then none", async () => {
  const stack = await ctx.stack(path.join(EXAMPLES, "data-sources"), ctx.emu.keys.individual);

  expect((await stack.up()).code).toBe(0);
  const { chosenType, machineId } = await stack.outputs();
  const machine = liveMachines(await ctx.emulator()).find((m) => m.id === machineId);
  expect(machine).toMatchObject({
    machineType: chosenType,
    networkId: SEEDED.individualNy2Network,
    state: "ready",
  });

  expect((await stack.preview("--expect-no-changes")).code).toBe(0);
  expect(summary(await stack.refresh()).resourceChanges).toEqual({ same: 2 });
  expect((await stack.destroy()).code).toBe(0);
  expect(liveMachines(await ctx.emulator())).toEqual([]);
});

test("yaml: up, preview, refresh, destroy on the plugin → a ready machine with its script, restart and delegation, no changes, no drift, nothing left", async () => {
  const stack = await ctx.stack(path.join(EXAMPLES, "yaml"), ctx.emu.keys.individual);
  const up = expectExit(await stack.up());
  expect(summary(up).resourceChanges).toEqual({ create: 5 });
  const outputs = await stack.outputs();
  expect(outputs).toMatchObject({
    machineState: "ready",
    machineName: expect.stringMatching(/^trainer-[a-z0-9]{7}$/),
    scriptName: expect.stringMatching(/^setup-[a-z0-9]{7}$/),
    viewerToken: "[secret]",
  });
  const dump = await ctx.emulator();
  expect(liveMachines(dump).map((m) => [m.id, m.state])).toEqual([[outputs.machineId, "ready"]]);
  expect(dump.scripts.map((s) => s.id)).toEqual([outputs.scriptId]);

  expectExit(await stack.preview("--expect-no-changes"));
  expect(summary(expectExit(await stack.refresh())).resourceChanges).toEqual({ same: 5 });
  expectExit(await stack.destroy());
  const after = await ctx.emulator();
  expect(liveMachines(after)).toEqual([]);
  expect(after.scripts).toEqual([]);
});

test("examples: every folder under examples/ → a program with a Pulumi.yaml run by a test (this file; two-accounts by accounts.test.ts; go, python and java by goProgram, pythonProgram and javaProgram), but ci, the pipeline whose steps ciReview.test.ts runs", () => {
  // Every folder, the ones without a Pulumi.yaml included: a new example that lacks one fails here.
  expect(subfolders(EXAMPLES, "Pulumi.yaml")).toEqual([
    { name: "ci", has: false },
    { name: "data-sources", has: true },
    { name: "go", has: true },
    { name: "java", has: true },
    { name: "python", has: true },
    { name: "quickstart", has: true },
    { name: "team", has: true },
    { name: "two-accounts", has: true },
    { name: "yaml", has: true },
  ]);
});

test("examples: no Pulumi.yaml names a plugins: section → each is the project a user has (the plugin installed in PULUMI_HOME, as npm run pulumi installs this checkout's)", () => {
  const withPlugins = fs
    .readdirSync(EXAMPLES)
    .map((name) => path.join(EXAMPLES, name, "Pulumi.yaml"))
    .filter((file) => fs.existsSync(file) && /^plugins:/m.test(fs.readFileSync(file, "utf8")));
  expect(withPlugins).toEqual([]);
});
