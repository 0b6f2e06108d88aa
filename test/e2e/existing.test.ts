/**
 * `X.get` on the real engine: a machine, a script and an access grant made outside the stack are
 * read into the program (outputs as the API reports them), and `destroy` of that stack leaves
 * them alone; `ResourceDelegation.get` fails saying why (the API cannot read a delegation back).
 */
import * as path from "path";
import { VmApiClient } from "../../src";
import { useE2eContext, PROGRAMS, liveMachines } from "./support/kit";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(180_000);

/** The individual account's one user. */
const JANE = SEEDED.individualUser;

const ctx = useE2eContext();

/** A client of the same account, outside any stack. */
function elsewhere(): VmApiClient {
  return ctx.client();
}

/** A machine made outside the stack (in AMS1, so it is not the program's default region). */
function machineMadeElsewhere(machineName: string) {
  return elsewhere().machines.create({
    region: "Europe (AMS1)",
    machineType: "C4",
    size: 50,
    billingType: "hourly",
    machineName,
    templateId: SEEDED.headlessTemplate,
  });
}

test("get: a machine and a script made elsewhere → read with their outputs; destroy leaves both", async () => {
  const client = elsewhere();
  const machine = await machineMadeElsewhere("made-elsewhere");
  await client.machines.waitFor(machine.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  const script = await client.scripts.create({ scriptName: "elsewhere.sh", scriptText: "echo hi" });
  const stack = await ctx.stack(path.join(PROGRAMS, "existing"), ctx.emu.keys.individual, {
    machineId: machine.id,
    scriptId: script.id,
    userId: JANE,
  });

  expect((await stack.up()).code).toBe(0);
  expect(await stack.outputs()).toEqual({
    name: "made-elsewhere",
    region: "Europe (AMS1)",
    currentState: "ready",
    scriptName: "elsewhere.sh",
    isMachine: true,
    accessMachineId: machine.id,
    accessUserId: JANE,
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

test("ResourceDelegation.get → the up fails saying the API cannot read a delegation back; nothing else changes", async () => {
  const client = elsewhere();
  const machine = await machineMadeElsewhere("delegated-elsewhere");
  const script = await client.scripts.create({ scriptName: "elsewhere-2.sh", scriptText: "echo hi" });
  const delegation = await client.resourceDelegations.create({ machine: { ids: [machine.id] } });
  const stack = await ctx.stack(path.join(PROGRAMS, "existing"), ctx.emu.keys.individual, {
    machineId: machine.id,
    scriptId: script.id,
    userId: JANE,
    delegationId: String(delegation.id),
  });
  const up = await stack.up();
  expect(up.code).not.toBe(0);
  expect(up.stdout + up.stderr).toContain(
    `resource delegation ${delegation.id}: the API cannot read a delegation back`,
  );
  expect(up.stdout + up.stderr).not.toContain(delegation.accessTokenId);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toContain(machine.id);
});
