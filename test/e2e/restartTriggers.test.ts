/**
 * `restartTriggers` on the real engine (test/e2e/programs/scriptEdit, the README's pattern: the
 * Script attached with `machineId`, the machine restarted when the script's id changes):
 * - an edited script with the trigger: the same machine, exactly one restart request, `ready`
 *   after, and the new script ran at that boot; preview shows an in-place update of the restart
 *   and `vmapi-review` names the restart and the trigger that changed;
 * - the same edit without the trigger: no restart;
 * - a trigger change on a machine declared off: neither a restart nor a start, and the log says why.
 * With VMAPI_CAPTURE_REVIEW_FIXTURES=restart the preview of the edit is written to
 * test/unit/review/fixtures/restart.json, which the review's unit tests read.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { REPO, expectExit, messages, steps } from "./support/cli";

jest.setTimeout(300_000);

const PROGRAM = path.join(PROGRAMS, "scriptEdit");
const RESTART = "POST /machines/{machineId}/restart";
const START = "POST /machines/{machineId}/start";

const ctx = useE2eContext();

const client = () => ctx.client({ env: {} });

/** `vmapi-review` of a `preview --json`. */
function review(json: string): string {
  const run = spawnSync(process.execPath, [path.join(REPO, "dist", "review", "cli.js")], {
    input: json,
    encoding: "utf8",
  });
  expect(run.status).toBe(0);
  return run.stdout;
}

/** Writes a preview as the review's fixture, laid out by prettier (in a child process: not inside jest). */
function capture(json: string): void {
  const file = path.join(REPO, "test", "unit", "review", "fixtures", "restart.json");
  const prettier = require.resolve("prettier/bin/prettier.cjs");
  const formatted = spawnSync(process.execPath, [prettier, "--stdin-filepath", file], { input: json });
  if (formatted.status !== 0) throw new Error(`prettier: ${String(formatted.stderr)}`);
  fs.writeFileSync(file, formatted.stdout);
}

test("restartTriggers: edited script → preview shows the restart's update, review names it; up restarts the same machine once, it is ready and ran the new script", async () => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, { restart: "true" });
  const first = expectExit(await stack.up());
  // Declaring the triggers restarts nothing: the machine has just booted.
  expect(steps(first).map((s) => [s.name, s.op])).toContainEqual(["box-restart", "create"]);
  expect(await ctx.received(RESTART)).toBe(0);
  const { machineId } = await stack.outputs();

  await stack.setConfig({ text: "#!/bin/bash\necho second\n" });
  const plan = expectExit(await stack.cli(["preview", "--json"]));
  const planned = JSON.parse(plan.stdout) as { steps: { urn: string; op: string }[] };
  const ops = planned.steps.map((s) => [s.urn.split("::").pop(), s.op]);
  expect(ops).toContainEqual(["box-restart", "update"]);
  expect(ops).not.toContainEqual(["box", "replace"]);
  if ((process.env.VMAPI_CAPTURE_REVIEW_FIXTURES ?? "").split(",").includes("restart")) capture(plan.stdout);
  const text = review(plan.stdout);
  expect(text).toContain("1 to restart");
  expect(text).toMatch(
    /\| `box` \([^)]*\) \| restart \| `restartTriggers\[0\]` "sc[a-z0-9]+" → \(from `boot`, known after up\)/,
  );

  const restartsBefore = await ctx.received(RESTART);
  const up = expectExit(await stack.up());
  expect((await ctx.received(RESTART)) - restartsBefore).toBe(1);
  expect(messages(up)).toContainEqual(
    expect.stringMatching(/restarting, its restartTriggers changed \(trigger 0 of 1\)/),
  );
  const after = await stack.outputs();
  expect(after.machineId).toBe(machineId);
  const machine = await client().machines.get(String(machineId));
  expect(machine.state).toBe("ready");
  expect((machine.events ?? []).map((e) => e.name)).toContain("restart");
  // The new script is the machine's, and it ran at that boot.
  const script = await client().scripts.get(String(after.scriptId));
  expect(script.machines).toEqual([expect.objectContaining({ machineId, dtLastRun: expect.any(String) })]);

  expectExit(await stack.preview("--expect-no-changes"));
  expectExit(await stack.destroy());
});

test("restartTriggers left out: the same edit → the script is replaced, no restart", async () => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual);
  expectExit(await stack.up());
  await stack.setConfig({ text: "#!/bin/bash\necho edited\n" });
  const before = await ctx.received(RESTART);
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => s.name)).not.toContain("box-restart");
  expect((await ctx.received(RESTART)) - before).toBe(0);
  expectExit(await stack.destroy());
});

test("restartTriggers on a machine declared off: the edit → neither restarted nor started; the log says why", async () => {
  const stack = await ctx.stack(PROGRAM, ctx.emu.keys.individual, { restart: "true", state: "off" });
  expectExit(await stack.up());
  const { machineId } = await stack.outputs();
  await stack.setConfig({ text: "#!/bin/bash\necho while off\n" });
  const [restarts, starts] = [await ctx.received(RESTART), await ctx.received(START)];
  const up = expectExit(await stack.up());
  expect([(await ctx.received(RESTART)) - restarts, (await ctx.received(START)) - starts]).toEqual([0, 0]);
  expect(messages(up)).toContainEqual(
    expect.stringMatching(/restartTriggers changed, but it is declared off: not started, nothing restarted/),
  );
  expect((await client().machines.get(String(machineId))).state).toBe("off");
  expectExit(await stack.destroy());
});
