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
import { VmApiClient } from "../../src/client/client";
import type { RunningEmulator } from "../../src/emulator";
import { startTestEmulator, type FaultRuleInput } from "../kit/emulator";
import { expectExit, messages } from "./support/cli";
import { EngineStack, EngineWorkspace } from "./support/engineStack";
import { PROGRAMS, connectionConfig, liveMachines } from "./support/kit";
import { SEEDED } from "../kit/seeded";
import { MACHINE_BASICS } from "../kit/machines";

jest.setTimeout(300_000);

const SCALE = 0.02;
const CREATE_MACHINE = "POST /machines/createSingleMachinePublic";
const CREATE_SCRIPT = "POST /scripts/createScript";

let emu: RunningEmulator;
let workspace: EngineWorkspace;
const stacks: EngineStack[] = [];
/** Create requests the emulator is done with (answered, or acted on after the client left). */
const finished = new Map<string, number>();

beforeAll(async () => {
  emu = await startTestEmulator({
    clock: "real",
    timeScale: SCALE,
    log: (line) => {
      const route = [CREATE_MACHINE, CREATE_SCRIPT].find((r) => line.startsWith(`${r} `));
      if (route) finished.set(route, (finished.get(route) ?? 0) + 1);
    },
  });
  workspace = new EngineWorkspace();
  // The plugin reads it at call time, like VMAPI_POLL_SCALE: every request but a create gets 600 ms.
  workspace.env.VMAPI_TIMEOUT_MS = String(Math.round(30_000 * SCALE));
});
afterAll(async () => {
  for (const stack of stacks) await stack.remove();
  workspace.dispose();
  await emu.close();
});

async function stackOf(program: string, config: Record<string, string> = {}): Promise<EngineStack> {
  const stack = await EngineStack.create(workspace, path.join(PROGRAMS, program), {
    ...connectionConfig(emu, emu.keys.individual),
    "vmapi:pollScale": String(SCALE),
    ...config,
  });
  stacks.push(stack);
  return stack;
}

/**
 * Waits until the emulator is done with every create it received, late ones included, so what it
 * holds is final. Waits for events, not for a length of time.
 */
async function settled(): Promise<void> {
  for (;;) {
    const counts = (await emu.control.state()).requestCounts;
    const pending = [CREATE_MACHINE, CREATE_SCRIPT].some((r) => (finished.get(r) ?? 0) < (counts[r] ?? 0));
    if (!pending) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function liveNamed(name: string): Promise<string[]> {
  return liveMachines(await emu.control.state())
    .filter((m) => m.name === name)
    .map((m) => m.id);
}

const machineRule = (rule: Partial<FaultRuleInput>): FaultRuleInput[] => [
  { method: "POST", route: "/machines/createSingleMachinePublic", ...rule },
];

describe("up with a create answered late", () => {
  it("Machine (auto-named), answered 90 s late → one machine, the one in the stack; the log says it waited; destroy → none live", async () => {
    const stack = await stackOf("machine");
    await emu.control.addFaults(machineRule({ latencyMs: 90_000 }));
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
    const client = new VmApiClient({ apiKey: emu.keys.individual, baseUrl: emu.url, env: {} });
    const namesake = await client.machines.create({
      ...MACHINE_BASICS,
      machineName: "shared-box",
      templateId: SEEDED.headlessTemplate,
    });
    const stack = await stackOf("machine", { name: "shared-box" });
    await emu.control.addFaults(machineRule({ cutAfterMs: 60_000, latencyMs: 90_000 }));
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
    await emu.control.addFaults([
      { method: "POST", route: "/scripts/createScript", latencyMs: 90_000, skip: 1 },
    ]);
    const up = expectExit(await stack.up());
    await settled();
    const [script] = await stack.resources();
    const name = String(script.outputs?.name);
    const named = (await emu.control.state()).scripts.filter((s) => s.name === name).map((s) => s.id);
    expect(named).toEqual([script.id]);
    expect(messages(up)).toContainEqual(
      expect.stringMatching(new RegExp(`no answer to the create of script ${name} yet after`)),
    );
    // The script's create and its marker's (an unfinished create's proof), each sent once.
    expect((await emu.control.state()).requestCounts[CREATE_SCRIPT]).toBe(2);
    expectExit(await stack.destroy());
    expect((await emu.control.state()).scripts).toEqual([]);
  });
});
