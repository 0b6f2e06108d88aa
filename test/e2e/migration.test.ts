/**
 * Moving a stack from the dynamic route (a TypeScript program) to the plugin (a Pulumi YAML
 * program), as docs/plugin.md describes it, on the real engine, without touching any machine:
 * 1. the resources leave the state (`pulumi state delete`), the machine and script stay in the API;
 * 2. the YAML program declares them with their current names and `import: <id>`;
 * 3. `up` imports them (reads only), and the next preview shows no change.
 * Not one request that changes anything reaches the API between the first `up` and the destroy.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useE2eContext, liveMachines } from "./support/kit";
import { CHECKOUT_PLUGINS_SECTION, MACHINE_PROPERTIES } from "./support/yamlText";
import { REPO, expectExit, steps } from "./support/cli";

jest.setTimeout(300_000);

const ctx = useE2eContext();

const TS_PROGRAM = `import { Machine, Script } from "pulumi-vmapi";
const box = new Machine("box", {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
});
const setup = new Script("setup", { scriptText: "#!/bin/bash\\necho migrated\\n", machineId: box.machineId });
export const machineId = box.machineId;
export const machineName = box.name;
export const scriptId = setup.scriptId;
export const scriptName = setup.name;
`;

/** The YAML program that takes the same machine and script over (ids and names from the stack). */
function yamlProgram(ids: Record<string, unknown>, importing: boolean): string {
  const option = (id: unknown) => (importing ? `    options:\n      import: ${String(id)}\n` : "");
  return `name: vmapi-e2e-migrate
runtime: yaml
${CHECKOUT_PLUGINS_SECTION}
resources:
  box:
    type: vmapi:index:Machine
    properties:
${MACHINE_PROPERTIES}
      name: ${String(ids.machineName)}
${option(ids.machineId)}  setup:
    type: vmapi:index:Script
    properties:
      scriptText: "#!/bin/bash\\necho migrated\\n"
      name: ${String(ids.scriptName)}
      machineId: \${box.machineId}
${option(ids.scriptId)}outputs:
  machineId: \${box.machineId}
  scriptId: \${setup.scriptId}
`;
}

/** Routes that change something in the API. */
const isWrite = (route: string) => route.startsWith("POST ");

test("dynamic route → plugin: state delete, a YAML program importing the same machine and script, up → the same ids, no change sent; preview → no changes; destroy → nothing left", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-migrate-"));
  try {
    fs.writeFileSync(
      path.join(dir, "Pulumi.yaml"),
      "name: vmapi-e2e-migrate\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    fs.writeFileSync(path.join(dir, "index.ts"), TS_PROGRAM);
    fs.symlinkSync(path.join(REPO, "node_modules"), path.join(dir, "node_modules"));
    const stack = await ctx.stack(dir, ctx.emu.keys.individual);
    expectExit(await stack.up());
    const ids = await stack.outputs();
    const before = (await ctx.emulator()).requestCounts;

    // 1. Out of the state, dependents first: nothing is sent.
    const dynamic = (await stack.resources()).filter((r) =>
      r.type.startsWith("pulumi-nodejs:dynamic/vmapi:"),
    );
    expect(dynamic.map((r) => r.type).sort()).toEqual([
      "pulumi-nodejs:dynamic/vmapi:Machine",
      "pulumi-nodejs:dynamic/vmapi:Script",
    ]);
    for (const urn of [...dynamic].sort((a) => (a.type.endsWith(":Script") ? -1 : 1)).map((r) => r.urn))
      expectExit(await stack.cli(["state", "delete", urn, "--yes"]));

    // 2. and 3. The YAML program imports them.
    fs.rmSync(path.join(dir, "index.ts"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(ids, true));
    const up = expectExit(await stack.up());
    expect(
      steps(up)
        .map((s) => [s.name, s.op])
        .sort(),
    ).toEqual([
      ["box", "import"],
      ["setup", "import"],
    ]);
    const resources = await stack.resources();
    expect(resources.map((r) => [r.type, r.id]).sort()).toEqual([
      ["vmapi:index:Machine", ids.machineId],
      ["vmapi:index:Script", ids.scriptId],
    ]);

    // The import options done with: the program as it stays.
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(ids, false));
    expectExit(await stack.preview("--expect-no-changes"));
    const after = (await ctx.emulator()).requestCounts;
    const writes = Object.keys(after).filter(
      (route) => isWrite(route) && after[route] !== (before[route] ?? 0),
    );
    expect(writes).toEqual([]);
    expect(liveMachines(await ctx.emulator()).find((m) => m.id === ids.machineId)).toMatchObject({
      name: ids.machineName,
      state: "ready",
    });

    expectExit(await stack.destroy());
    const dump = await ctx.emulator();
    expect(liveMachines(dump).map((m) => m.id)).not.toContain(ids.machineId);
    expect(dump.scripts.map((s) => s.id)).not.toContain(ids.scriptId);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
