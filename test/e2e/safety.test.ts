/**
 * The paths that could delete or forget a billed machine, on the real engine
 * (test/e2e/programs/machine):
 * - adopting a machine whose declared inputs differ is refused before anything changes, and a
 *   matching adoption previews no changes afterwards;
 * - a destroy that fails with a 400 "not found" keeps the machine in the state;
 * - a machine made for a new team user can be replaced, and destroyed and made again;
 * - preview stops on a wrong key, an unreachable API and a bad setting, creating nothing.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { expectExit, messages, steps } from "./support/cli";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";

jest.setTimeout(180_000);

const PROGRAM = path.join(PROGRAMS, "machine");
const CREATE = "POST /machines/createSingleMachinePublic";

const ctx = useE2eContext();

const creates = () => ctx.received(CREATE);

test("adopt: declared region and machineType differ → preview and up refuse naming both, the machine untouched; matching → adopted, no changes", async () => {
  const client = ctx.client();
  const existing = await client.machines.create({
    ...MACHINE_BASICS,
    machineName: "week-of-work",
    templateId: SEEDED.headlessTemplate,
  });
  await client.machines.waitFor(existing.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, {
    adoptMachineId: existing.id,
    region: "Europe (AMS1)",
    machineType: "C2",
    name: "week-of-work",
  });

  const preview = await stack.preview();
  expect(preview.code).not.toBe(0);
  expect(preview.stdout).toMatch(/region/);
  expect(preview.stdout).toMatch(/machineType/);
  const up = await stack.up();
  expect(up.code).not.toBe(0);
  expect(messages(up).join("\n")).toMatch(/East Coast \(NY2\)/);
  const [machine] = (await ctx.emulator()).machines.filter((m) => m.id === existing.id);
  expect(machine).toMatchObject({
    state: "ready",
    name: "week-of-work",
    region: "East Coast (NY2)",
    dtDestroyed: null,
  });
  expect(await stack.resources()).toEqual([]);

  await stack.setConfig({ region: "East Coast (NY2)", machineType: "C4" });
  expectExit(await stack.up());
  expect((await stack.resources()).map((r) => r.id)).toEqual([existing.id]);
  expectExit(await stack.preview("--expect-no-changes"));

  // A change that would replace the adopted machine (and destroy it) is refused while adopting.
  await stack.setConfig({ machineType: "C2" });
  const replace = await stack.preview();
  expect(replace.code).not.toBe(0);
  expect((await ctx.emulator()).machines.find((m) => m.id === existing.id)?.dtDestroyed).toBeNull();
  await stack.setConfig({ machineType: "C4" });
  expectExit(await stack.destroy());
});

test("destroy: the API answers 400 'not found' for a running machine → destroy fails, the machine stays in the state", async () => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, { name: "keep-me" });
  expectExit(await stack.up());
  const [{ id }] = await stack.resources();
  await ctx.emu.control.addFaults([
    {
      method: "POST",
      route: "/machines/{machineId}/destroyMachine",
      status: 400,
      code: "not_found",
      times: 20,
    },
  ]);
  const destroy = await stack.destroy();
  expect(destroy.code).not.toBe(0);
  expect((await stack.resources()).map((r) => r.id)).toEqual([id]);
  expect((await ctx.emulator()).machines.find((m) => m.id === id)).toMatchObject({
    state: "ready",
    dtDestroyed: null,
  });

  await ctx.emu.control.clearFaults();
  expectExit(await stack.destroy());
  expect(await stack.resources()).toEqual([]);
  expect((await ctx.emulator()).machines.find((m) => m.id === id)?.dtDestroyed).not.toBeNull();
});

test("team user: size changed → replaced for the same user; destroy then up → made again for that user", async () => {
  const email = "replace.me@example.com";
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.teamAdmin, {
    teamId: SEEDED.team,
    email,
    password: { secret: "N3w-user-passw0rd" },
  });
  expectExit(await stack.up());
  const first = (await stack.outputs()) as { machineId: string; userId: string };
  const usersNamed = async () => (await ctx.emulator()).users.filter((u) => u.email === email);
  expect(await usersNamed()).toHaveLength(1);

  await stack.setConfig({ size: "100" });
  const preview = expectExit(await stack.preview());
  expect(steps(preview).map((s) => s.op)).toContain("replace");
  expect(messages(preview).join("\n")).toMatch(/exists/);
  expectExit(await stack.up());
  const second = (await stack.outputs()) as { machineId: string; userId: string };
  expect(second.machineId).not.toBe(first.machineId);
  expect(second.userId).toBe(first.userId);
  expect(await usersNamed()).toHaveLength(1);

  expectExit(await stack.destroy());
  expectExit(await stack.up());
  const third = (await stack.outputs()) as { machineId: string; userId: string };
  expect(third.userId).toBe(first.userId);
  expect(
    liveMachines(await ctx.emulator())
      .filter((m) => m.userId === first.userId)
      .map((m) => m.id),
  ).toEqual([third.machineId]);
  expectExit(await stack.destroy());
});

// `up --skip-preview` too: a setting checked only after the create would fail the `up` with a
// machine made and untracked (a preview never creates, so it alone cannot show that).
const BAD_SETTINGS = [
  ["a wrong API key", { "vmapi:apiKey": { secret: "not-a-key" } }, /invalid API key/],
  ["an API nobody answers", { "vmapi:baseUrl": "http://127.0.0.1:9" }, /127\.0\.0\.1:9/],
  ["vmapi:pollScale 'fast'", { "vmapi:pollScale": "fast" }, /pollScale/],
] as const;
test.each(
  (["preview", "up"] as const).flatMap((command) => BAD_SETTINGS.map((row) => [command, ...row] as const)),
)("%s: %s → fails saying so, nothing created", async (command, _case, config, reason) => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, config);
  const before = await creates();
  const run = command === "preview" ? await stack.preview() : await stack.up();
  expect(run.code).not.toBe(0);
  expect(run.stdout + run.stderr).toMatch(reason);
  expect(run.stdout + run.stderr).not.toContain("not-a-key");
  expect(await creates()).toBe(before);
  expect(await stack.resources()).toEqual([]);
});
