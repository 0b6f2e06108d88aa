/**
 * Renaming resources in the program with `aliases` changes nothing, on the real engine
 * (test/e2e/programs/aliases): an auto-named Script used by a Machine through `scriptId`, and an
 * auto-named Machine on its own, renamed with an alias to the old name, keep their names, ids and
 * everything else; the preview shows no change and the up sends no request that changes anything.
 */
import * as path from "path";
import { E2eContext, PROGRAMS } from "./support/kit";
import { expectExit, steps } from "./support/cli";
import type { EmulatorStateDump } from "../helpers/emulator";

jest.setTimeout(180_000);

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await E2eContext.start();
});
afterAll(() => ctx.close());

/** Requests that can change something (everything but GET), by route. */
function changingRequests(dump: EmulatorStateDump): Record<string, number> {
  return Object.fromEntries(
    Object.entries(dump.requestCounts).filter(([route]) => !route.startsWith("GET ")),
  );
}

/** What the emulator holds of the machines and scripts: ids, names, and the rest of each record. */
function holdings(dump: EmulatorStateDump) {
  return { machines: dump.machines, scripts: dump.scripts };
}

test("aliases: an auto-named Script used by a Machine and an auto-named Machine, renamed with aliases → preview shows no change, up changes nothing", async () => {
  const stack = await ctx.stack(path.join(PROGRAMS, "aliases"), ctx.emu.keys.individual);
  expectExit(await stack.up());
  const before = await stack.outputs();
  const stateBefore = await stack.resources();
  expect(before.scriptName).toMatch(/^boot-[a-z0-9]{7}$/);
  expect(before.soloName).toMatch(/^old-m-[a-z0-9]{7}$/);

  await stack.setConfig({ renamed: "true" });
  const preview = await stack.preview("--diff", "--expect-no-changes");
  expect({ code: preview.code, stdout: preview.stdout }).toMatchObject({ code: 0 });
  // The engine shows the renames (old URN → new URN) as "same" steps; nothing else.
  expect(
    steps(preview)
      .map((s) => `${s.op} ${s.name}`)
      .sort(),
  ).toEqual(["same new-m", "same startup", "same web"]);

  const emulatorBefore = await ctx.emulator();
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => s.op)).toEqual(["same", "same", "same"]);
  const emulatorAfter = await ctx.emulator();
  expect(changingRequests(emulatorAfter)).toEqual(changingRequests(emulatorBefore));
  expect(holdings(emulatorAfter)).toEqual(holdings(emulatorBefore));

  expect(await stack.outputs()).toEqual(before);
  const stateAfter = await stack.resources();
  expect(stateAfter.map((r) => [r.urn.split("::").pop(), r.id, r.outputs?.name])).toEqual(
    stateBefore.map((r) => [
      { boot: "startup", "old-m": "new-m" }[r.urn.split("::").pop()!] ?? r.urn.split("::").pop(),
      r.id,
      r.outputs?.name,
    ]),
  );

  // A later preview of the renamed program still shows nothing to do.
  expectExit(await stack.preview("--expect-no-changes"));
});
