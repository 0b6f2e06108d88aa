/**
 * Creates the API answers late, during a real `pulumi up` (issue 20 item 2): the emulator holds
 * the create of a Machine or a Script 90 s before it acts, past the provider's 30 s request
 * timeout, or a proxy cuts the connection at 60 s while the create lands at 90 s. Afterwards the
 * emulator holds exactly what the stack records (nothing extra live, a namesake that was there
 * before untouched), the progress log says what happened, and `destroy` leaves nothing.
 *
 * Everything runs at SCALE: the emulator's lifecycles and fault latencies, the provider's polls
 * and create window (`vmapi:pollScale`), and its request timeout (`VMAPI_TIMEOUT_MS`, 30 s here
 * 600 ms), so "90 s" late is 1.8 s.
 */
import * as path from "path";
import type { FaultRuleInput } from "../kit/emulator";
import { expectExit, messages } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { PROGRAMS, liveMachines, useE2eContext } from "./support/kit";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";

jest.setTimeout(300_000);

const SCALE = 0.02;
const CREATE_MACHINE = "POST /machines/createSingleMachinePublic";
const CREATE_SCRIPT = "POST /scripts/createScript";

const ctx = useE2eContext({ timeScale: SCALE });
beforeAll(() => {
  // The plugin reads it at call time, like VMAPI_POLL_SCALE: every request but a create gets 600 ms.
  ctx.workspace.env.VMAPI_TIMEOUT_MS = String(Math.round(30_000 * SCALE));
});

/** A stack of `program` under the individual key, its polls and create window at SCALE. */
function stackOf(program: string, config: Record<string, string> = {}): Promise<EngineStack> {
  return ctx.stack(path.join(PROGRAMS, program), ctx.emu.keys.individual, config);
}

/** Until the emulator is done with every create it received, late ones included: what it holds is final. */
const settled = () => ctx.finished.settled(ctx.emu.control, [CREATE_MACHINE, CREATE_SCRIPT]);

async function liveNamed(name: string): Promise<string[]> {
  return liveMachines(await ctx.emu.control.state())
    .filter((m) => m.name === name)
    .map((m) => m.id);
}

const machineRule = (rule: Partial<FaultRuleInput>): FaultRuleInput[] => [
  { method: "POST", route: "/machines/createSingleMachinePublic", ...rule },
];

describe("up with a create answered late", () => {
  it("Machine (auto-named), answered 90 s late → one machine, the one in the stack; the log says it waited; destroy → none live", async () => {
    const stack = await stackOf("machine");
    await ctx.emu.control.addFaults(machineRule({ latencyMs: 90_000 }));
    const up = expectExit(await stack.up());
    await settled();
    const [box] = await stack.resources();
    const name = String(box.outputs?.name);
    expect(await liveNamed(name)).toEqual([box.id]);
    expect(messages(up)).toContainEqual(
      expect.stringMatching(
        new RegExp(`no answer to the create of machine ${name} yet after .*; waiting for it`),
      ),
    );
    expectExit(await stack.destroy());
    expect(await liveNamed(name)).toEqual([]);
  });

  it("Machine (fixed name, a namesake existed), connection cut at 60 s, created at 90 s → that machine is taken, the namesake untouched; destroy → only the namesake live", async () => {
    const client = ctx.client({ env: {} });
    const namesake = await client.machines.create({
      ...MACHINE_BASICS,
      machineName: "shared-box",
      templateId: SEEDED.headlessTemplate,
    });
    const stack = await stackOf("machine", { name: "shared-box" });
    await ctx.emu.control.addFaults(machineRule({ cutAfterMs: 60_000, latencyMs: 90_000 }));
    const up = expectExit(await stack.up());
    await settled();
    const [box] = await stack.resources();
    expect(box.id).not.toBe(namesake.id);
    expect((await liveNamed("shared-box")).sort()).toEqual([namesake.id, box.id!].sort());
    expect(messages(up)).toContainEqual(
      expect.stringMatching(
        new RegExp(`create of machine shared-box was lost .*, and it made machine ${box.id}: taking it`),
      ),
    );
    expectExit(await stack.destroy());
    expect(await liveNamed("shared-box")).toEqual([namesake.id]);
    await client.machines.destroy(namesake.id);
  });

  it("Script (auto-named), answered 90 s late → one script, the one in the stack; destroy → none", async () => {
    const stack = await stackOf("scripts", { count: "1" });
    // The script's own create (its marker's comes first: scriptCreate.ts).
    await ctx.emu.control.addFaults([
      { method: "POST", route: "/scripts/createScript", latencyMs: 90_000, skip: 1 },
    ]);
    const up = expectExit(await stack.up());
    await settled();
    const [script] = await stack.resources();
    const name = String(script.outputs?.name);
    const named = (await ctx.emu.control.state()).scripts.filter((s) => s.name === name).map((s) => s.id);
    expect(named).toEqual([script.id]);
    expect(messages(up)).toContainEqual(
      expect.stringMatching(new RegExp(`no answer to the create of script ${name} yet after`)),
    );
    // The script's create and its marker's (an unfinished create's proof), each sent once.
    expect((await ctx.emu.control.state()).requestCounts[CREATE_SCRIPT]).toBe(2);
    expectExit(await stack.destroy());
    expect((await ctx.emu.control.state()).scripts).toEqual([]);
  });
});
