/**
 * `Machine.get` and `Script.get` on the real engine: a machine and a script made outside the
 * stack are read into the program (outputs as the API reports them), and `destroy` of that
 * stack leaves both alone.
 */
import * as path from "path";
import { VmApiClient } from "../../src";
import { E2eContext, PROGRAMS, liveMachines } from "./support/kit";

jest.setTimeout(180_000);

let ctx: E2eContext;
beforeAll(async () => {
  ctx = await E2eContext.start();
});
afterAll(() => ctx.close());

test("get: a machine and a script made elsewhere → read with their outputs; destroy leaves both", async () => {
  const client = new VmApiClient({ apiKey: ctx.emu.keys.individual, baseUrl: ctx.emu.url });
  const machine = await client.machines.create({
    region: "Europe (AMS1)",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    machineName: "made-elsewhere",
    templateId: "tubsrv01",
  });
  await client.machines.waitFor(machine.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const script = await client.scripts.create({ scriptName: "elsewhere.sh", scriptText: "echo hi" });
  const stack = await ctx.stack(path.join(PROGRAMS, "existing"), ctx.emu.keys.individual, {
    machineId: machine.id,
    scriptId: script.id,
  });

  expect((await stack.up()).code).toBe(0);
  expect(await stack.outputs()).toEqual({
    name: "made-elsewhere",
    region: "Europe (AMS1)",
    currentState: "ready",
    scriptName: "elsewhere.sh",
    isMachine: true,
  });
  const before = await ctx.emulator();
  expect((await stack.destroy()).code).toBe(0);
  const after = await ctx.emulator();
  expect(liveMachines(after).map((m) => m.id)).toContain(machine.id);
  expect(after.scripts.map((s) => s.id)).toContain(script.id);
  expect(after.requestCounts["POST /machines/{machineId}/destroyMachine"] ?? 0).toBe(
    before.requestCounts["POST /machines/{machineId}/destroyMachine"] ?? 0,
  );
});
