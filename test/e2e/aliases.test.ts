/**
 * Renaming resources in the program with `aliases` changes nothing, on the real engine
 * (test/e2e/programs/aliases): an auto-named Script used by a Machine through `scriptId`, and an
 * auto-named Machine on its own, renamed with an alias to the old name, keep their names, ids and
 * everything else; the preview shows no change and the up sends no request that changes anything.
 */
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectExit, steps } from "./support/cli";
import type { EmulatorStateDump } from "../kit/emulator";

jest.setTimeout(180_000);

const ctx = useE2eContext();

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

  // Not even an internal input differs between the state and the renamed program's.
  for (const step of steps(preview)) expect(step.new?.inputs).toEqual(step.old?.inputs);

  const emulatorBefore = await ctx.emulator();
  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => s.op)).toEqual(["same", "same", "same"]);
  const emulatorAfter = await ctx.emulator();
  expect(changingRequests(emulatorAfter)).toEqual(changingRequests(emulatorBefore));
  expect(holdings(emulatorAfter)).toEqual(holdings(emulatorBefore));

  expect(await stack.outputs()).toEqual(before);
  // The same resources in the state (in any order), under the new names, with the same ids and names.
  const renamedTo: Record<string, string> = { boot: "startup", "old-m": "new-m" };
  const resourceName = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);
  const stateAfter = (await stack.resources()).map((r) => [resourceName(r.urn), r.id, r.outputs?.name]);
  const expected = stateBefore.map((r) => {
    const name = resourceName(r.urn);
    return [renamedTo[name] ?? name, r.id, r.outputs?.name];
  });
  expect(stateAfter.sort()).toEqual(expected.sort());

  // A later preview of the renamed program still shows nothing to do.
  expectExit(await stack.preview("--expect-no-changes"));
});
