/**
 * Editing a startup script on the real engine. Scripts are immutable, so an edited text is a new
 * Script; what must not happen is that the machines running it are replaced (their disks lost):
 * - the quickstart, as the README leads every new user, keeps its machine when its script text
 *   is edited, and the machine runs the new text at its next boot;
 * - a program that still sets `Machine.scriptId` is told, at preview, that the machine will be
 *   replaced, why, and what to write instead: a TypeScript program in the stack's log, a Pulumi
 *   YAML program (the plugin route) on the machine's own row; both in the text the preview
 *   prints, and once more (not twice) by the `up` that replaces the machine.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useE2eContext, EXAMPLES, PROGRAMS, liveMachines } from "./support/kit";
import { CHECKOUT_PLUGINS_SECTION, MACHINE_PROPERTIES } from "./support/yamlText";
import { REPO, expectExit, messages, steps, type CliRun } from "./support/cli";
import { REPLACED, expectReplacementWarning } from "./support/replacementWarning";

jest.setTimeout(300_000);

const ctx = useE2eContext();

/** A copy of examples/quickstart in a folder of its own (it resolves this package as the example does). */
function quickstartCopy(): { dir: string; edit(from: string, to: string): void; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-quickstart-"));
  for (const file of ["Pulumi.yaml", "index.ts"])
    fs.copyFileSync(path.join(EXAMPLES, "quickstart", file), path.join(dir, file));
  fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"));
  return {
    dir,
    edit(from, to) {
      const file = path.join(dir, "index.ts");
      const text = fs.readFileSync(file, "utf8");
      expect(text).toContain(from);
      fs.writeFileSync(file, text.replace(from, to));
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

test("quickstart: edited script text → the script is replaced (new one first), the machine keeps its id and disk and runs the new text at its next boot", async () => {
  const copy = quickstartCopy();
  try {
    const stack = await ctx.stack(copy.dir, ctx.emu.keys.individual);
    expectExit(await stack.up());
    const first = await stack.outputs();
    const machineId = first.machineId as string;

    copy.edit("python3-pip", "python3-venv");
    const plan = expectExit(await stack.preview());
    const planned = steps(plan).map((s) => [s.name, s.op]);
    expect(planned).toContainEqual(["trainer", "same"]);
    expect(planned.filter(([name]) => name === "trainer")).toEqual([["trainer", "same"]]);
    expect(planned).toContainEqual(["setup", "replace"]);

    const up = expectExit(await stack.up());
    // The new script exists before the old one goes (its auto-name differs, so no collision),
    // and the machine is never touched.
    const done = steps(up).map((s) => [s.name, s.op]);
    expect(done.filter(([name]) => name === "trainer")).toEqual([["trainer", "same"]]);
    expect(done.filter(([name]) => name === "setup")).toEqual([
      ["setup", "create-replacement"],
      ["setup", "replace"],
      ["setup", "delete-replaced"],
    ]);
    const second = await stack.outputs();
    expect(second.machineId).toBe(machineId);
    expect(second.scriptId).not.toBe(first.scriptId);
    expect(second.scriptName).not.toBe(first.scriptName);

    const dump = await ctx.emulator();
    const machines = dump.machines.filter((m) => m.id === machineId || m.name === first.machineName);
    expect(machines.map((m) => [m.id, m.dtDestroyed, m.scriptId])).toEqual([
      [machineId, null, second.scriptId],
    ]);
    expect(dump.scripts.map((s) => s.id)).toEqual([second.scriptId]);

    // The next boot runs the new script on that machine.
    const client = ctx.client();
    await client.machines.restart(machineId);
    await client.machines.waitFor(machineId, "ready", { timeoutMs: 30_000 });
    const script = await client.scripts.get(second.scriptId as string);
    expect(script.machines).toEqual([
      expect.objectContaining({ machineId, dtLastRun: expect.stringMatching(/^\d{4}-/) }),
    ]);
    expect((await client.machines.get(machineId)).dtLastRun).toEqual(expect.stringMatching(/^\d{4}-/));

    expectExit(await stack.destroy());
    expect(liveMachines(await ctx.emulator())).toEqual([]);
  } finally {
    copy.remove();
  }
});

test("Machine.scriptId: edited script text → preview warns, in its printed text too, that the machine will be replaced, why (scriptId, its disk) and what to write instead; up warns once", async () => {
  const stack = await ctx.stack(path.join(PROGRAMS, "scriptEdit"), ctx.emu.keys.individual, {
    pattern: "scriptId",
    text: "#!/bin/bash\necho first\n",
  });
  expectExit(await stack.up());
  await stack.setConfig({ text: "#!/bin/bash\necho second\n" });

  const plan = expectExit(await stack.preview());
  expect(steps(plan).map((s) => [s.name, s.op])).toContainEqual(["box", "replace"]);
  // A dynamic provider's warning reaches the engine as a line of the plugin: "warning: [runtime] ...".
  expectReplacementWarning(messages(plan).filter((m) => m.includes("warning: [runtime]")));
  expectReplacementWarning(printedLines(plan));

  const up = expectExit(await stack.up());
  expect(steps(up).map((s) => [s.name, s.op])).toContainEqual(["box", "replace"]);
  expect(messages(up).filter((m) => REPLACED.test(m))).toHaveLength(1);

  expectExit(await stack.destroy());
});

test("Machine.scriptId in Pulumi YAML (the plugin): edited script text → preview warns on the machine's own row, in its printed text too, that it will be replaced, why and what to write instead; up warns once", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-yaml-script-edit-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), YAML_SCRIPT_ID);
  try {
    const stack = await ctx.stack(dir, ctx.emu.keys.individual, { text: "#!/bin/bash\necho first\n" });
    expectExit(await stack.up());
    await stack.setConfig({ text: "#!/bin/bash\necho second\n" });

    const plan = expectExit(await stack.preview());
    expect(steps(plan).map((s) => [s.name, s.op])).toContainEqual(["box", "replace"]);
    // The plugin sends an implementation's warnings to the engine with the resource's URN.
    expectReplacementWarning(warningsOf(plan, "::box"));
    expectReplacementWarning(printedLines(plan));

    const up = expectExit(await stack.up());
    expect(steps(up).map((s) => [s.name, s.op])).toContainEqual(["box", "replace"]);
    expect(warningsOf(up, "::box").filter((m) => REPLACED.test(m))).toHaveLength(1);

    expectExit(await stack.destroy());
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

/** The scriptEdit program's `scriptId` pattern in Pulumi YAML, on this repository's plugin. */
const YAML_SCRIPT_ID = `name: vmapi-e2e-yaml-script-edit
runtime: yaml
${CHECKOUT_PLUGINS_SECTION}
config:
  text:
    type: string
resources:
  boot:
    type: vmapi:index:Script
    properties:
      scriptText: \${text}
  box:
    type: vmapi:index:Machine
    properties:
${MACHINE_PROPERTIES}
      scriptId: \${boot.scriptId}
`;

/**
 * The lines a person reads in the CLI's own display of the run (what issue 45 reported missing
 * from a preview), as against the engine's event log.
 */
function printedLines(run: CliRun): string[] {
  return run.stdout.split("\n");
}

/** The warnings the engine shows on the row of the resource whose URN ends with `urnEnd`. */
function warningsOf(run: CliRun, urnEnd: string): string[] {
  return run.events
    .filter((e) => e.diagnosticEvent?.severity === "warning" && e.diagnosticEvent.urn?.endsWith(urnEnd))
    .map((e) => e.diagnosticEvent!.message.trim());
}
