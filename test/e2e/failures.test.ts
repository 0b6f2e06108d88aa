/**
 * Failures on the real engine with test/e2e/programs/machine: a machine that does not boot (no
 * capacity) stays in the state and the next `up` completes it; invalid inputs stop `preview`
 * before any machine is created, naming the property.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { expectExit, steps } from "./support/cli";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(120_000);

const PROGRAM = path.join(PROGRAMS, "machine");
const CREATE = "POST /machines/createSingleMachinePublic";

const ctx = useE2eContext();

test("up: no capacity at boot → fails with the reason, machine kept in state; next up → completes it", async () => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, { name: "capacity-box" });
  await ctx.emu.control.capacity({ region: "East Coast (NY2)", machineType: "C4", failNextStarts: 1 });
  const createsBefore = await ctx.received(CREATE);

  const failed = await stack.up();
  expect(failed.code).not.toBe(0);
  expect(failed.stdout).toContain("insufficient capacity for C4 in East Coast (NY2)");
  const [kept] = await stack.resources();
  expect(kept.id).toMatch(/^ps/);
  expect(kept.initErrors).toEqual([expect.stringContaining("insufficient capacity")]);
  const mine = () => liveMachines(dump).filter((m) => m.name === "capacity-box");
  let dump = await ctx.emulator();
  expect(mine().map((m) => [m.id, m.state])).toEqual([[kept.id, "off"]]);

  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => [s.op, s.new?.id])).toEqual([["update", kept.id]]);
  expect(await stack.outputs()).toMatchObject({ machineId: kept.id, currentState: "ready" });
  const [completed] = await stack.resources();
  expect(completed.initErrors).toBeUndefined();
  dump = await ctx.emulator();
  expect(mine().map((m) => [m.id, m.state])).toEqual([[kept.id, "ready"]]);
  expect(dump.requestCounts[CREATE] - createsBefore).toBe(1);
  expectExit(await stack.destroy());
});

test.each([
  [
    "an unknown region",
    { region: "Mars (MRS1)" },
    "region",
    /must be one of: West Coast \(CA1\), East Coast/,
  ],
  ["a Windows template with a C4", { templateId: SEEDED.windowsTemplate }, "machineType", /Windows/],
  [
    "both public IP flags",
    { assignPublicIp: "true", dynamicPublicIp: "true" },
    "dynamicPublicIp",
    /assignPublicIp/,
  ],
])("preview: %s → fails naming the property, nothing created", async (_case, config, property, reason) => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, config);
  const createsBefore = await ctx.received(CREATE);
  const preview = await stack.preview();
  expect(preview.code).not.toBe(0);
  // The engine's own wording for a check failure (the substitute assumed "'box's property 'x'").
  expect(preview.stdout).toMatch(
    new RegExp(`vmapi:Machine resource 'box': property ${property} value \\{.*\\} has a problem: `),
  );
  expect(preview.stdout).toMatch(reason);
  expect(await ctx.received(CREATE)).toBe(createsBefore);
  expect(await stack.resources()).toEqual([]);
});
