/**
 * Updates and deletes on the plugin route (Pulumi YAML programs on `pulumi-resource-vmapi`), on the
 * real engine with Pulumi YAML's language host:
 * - a `MachineRestart` whose trigger changes: the preview plans its update, the `up` restarts the
 *   same machine once and waits until it is ready; an unchanged trigger restarts nothing;
 * - the engine's `customTimeouts.update`, shorter than the restart: the update fails naming it,
 *   and the next `up` waits for the same restart without sending a second one;
 * - the engine's `customTimeouts.delete`, while the API holds the destroy: `destroy` fails naming
 *   it, the machine stays in the stack, and the next `destroy` removes it.
 * Each program is written into a folder of its own, with the options of its test.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useE2eContext, liveMachines } from "./support/kit";
import { CHECKOUT_PLUGINS_SECTION, MACHINE_PROPERTIES } from "./support/yamlText";
import { expectExit, steps, type CliRun } from "./support/cli";

jest.setTimeout(300_000);

const RESTART = "POST /machines/{machineId}/restart";
const DESTROY = { method: "POST", route: "/machines/{machineId}/destroyMachine" };
const printed = (run: CliRun) => run.stdout + run.stderr;

/** The `customTimeouts` of the machine and of its restart, as YAML lines. */
interface Timeouts {
  machine?: string;
  restart?: string;
}

/**
 * A program in a folder of its own: a machine and its restart on `${trigger}`, with `timeouts`;
 * `write` changes them in place (the stack's config stays beside it).
 */
function program(timeouts: Timeouts = {}): { dir: string; write(timeouts: Timeouts): void; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-yaml-ops-"));
  const write = (options: Timeouts) => fs.writeFileSync(path.join(dir, "Pulumi.yaml"), text(options));
  write(timeouts);
  return { dir, write, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

function text(options: Timeouts): string {
  const opts = (timeouts?: string) => (timeouts ? `    options:\n      customTimeouts:\n${timeouts}` : "");
  return `name: vmapi-e2e-yaml-operations
runtime: yaml
${CHECKOUT_PLUGINS_SECTION}
config:
  trigger:
    type: string
resources:
  box:
    type: vmapi:index:Machine
    properties:
${MACHINE_PROPERTIES}
${opts(options.machine)}
  boxRestart:
    type: vmapi:index:MachineRestart
    properties:
      machineId: \${box.machineId}
      triggers:
        - \${trigger}
${opts(options.restart)}
outputs:
  machineId: \${box.machineId}
  restartedAt: \${boxRestart.restartedAt}
`;
}

describe("at the tests' time scale", () => {
  const ctx = useE2eContext();
  const restarts = () => ctx.received(RESTART);

  test("MachineRestart: its trigger changes → preview plans its update alone; up restarts the same machine once, ready; unchanged → no restart", async () => {
    const yaml = program();
    try {
      const stack = await ctx.stack(yaml.dir, ctx.emu.keys.individual, { trigger: "one" });
      const first = expectExit(await stack.up());
      expect(steps(first).map((s) => [s.name, s.op])).toContainEqual(["boxRestart", "create"]);
      // Declaring the trigger restarts nothing: the machine has just booted.
      expect(await restarts()).toBe(0);
      expectExit(await stack.preview("--expect-no-changes"));
      const { machineId } = await stack.outputs();

      await stack.setConfig({ trigger: "two" });
      const planned = steps(expectExit(await stack.preview())).filter((s) => s.op !== "same");
      expect(planned.map((s) => [s.name, s.op, s.diffs])).toEqual([["boxRestart", "update", ["triggers"]]]);
      const before = await restarts();
      expectExit(await stack.up());
      expect((await restarts()) - before).toBe(1);
      const after = await stack.outputs();
      expect(after.machineId).toBe(machineId);
      expect(typeof after.restartedAt).toBe("string");
      const machine = liveMachines(await ctx.emulator()).find((m) => m.id === machineId);
      expect(machine?.state).toBe("ready");
      expect((machine?.events ?? []).map((e) => e.name)).toContain("restart");

      expectExit(await stack.destroy());
    } finally {
      yaml.remove();
    }
  });
});

describe("on an emulator whose restart takes 4.5 s", () => {
  const ctx = useE2eContext({ timeScale: 0.1 });
  const restarts = () => ctx.received(RESTART);

  test("customTimeouts.update 2s, shorter than the restart → the update fails naming it; the next up waits for that restart, sending no second one", async () => {
    const yaml = program({ restart: "        update: 2s\n" });
    try {
      const stack = await ctx.stack(yaml.dir, ctx.emu.keys.individual, { trigger: "one" });
      expectExit(await stack.up());
      await stack.setConfig({ trigger: "two" });
      const before = await restarts();
      const bounded = await stack.up();
      expect(bounded.code).not.toBe(0);
      expect(printed(bounded)).toMatch(/customTimeouts\.update \(2000ms\) ran out/);
      expect((await restarts()) - before).toBe(1);
      const { machineId } = await stack.outputs();

      // The program without the bound: the next up waits for the restart already sent.
      yaml.write({});
      const next = expectExit(await stack.up());
      expect(printed(next)).not.toMatch(/ran out/);
      expect((await restarts()) - before).toBe(1);
      const machine = liveMachines(await ctx.emulator()).find((m) => m.id === machineId);
      expect(machine?.state).toBe("ready");
      expectExit(await stack.destroy());
    } finally {
      yaml.remove();
    }
  });

  test("customTimeouts.delete 2s, the API holding the destroy → destroy fails naming it, the machine stays in the stack; released, the next destroy removes it", async () => {
    const yaml = program({ machine: "        delete: 2s\n" });
    try {
      const stack = await ctx.stack(yaml.dir, ctx.emu.keys.individual, { trigger: "one" });
      expectExit(await stack.up());
      const { machineId } = await stack.outputs();
      await ctx.emu.control.addFaults([{ ...DESTROY, hold: "request" }]);

      const cut = await stack.destroy();
      expect(cut.code).not.toBe(0);
      expect(printed(cut)).toMatch(/customTimeouts\.delete \(2000ms\) ran out/);
      expect(await ctx.emu.control.held()).toEqual([DESTROY]);
      expect((await stack.resources()).map((r) => r.id)).toContain(machineId);
      expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toContain(machineId);

      await ctx.emu.control.release();
      expectExit(await stack.destroy());
      expect(await stack.resources()).toEqual([]);
      expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(machineId);
    } finally {
      yaml.remove();
    }
  });
});
