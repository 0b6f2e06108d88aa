/**
 * A machine that does not settle in its declared power state is a partial failure of create and
 * update: the error carries the machine's id and outputs (declared `state`, observed
 * `currentState`), so the engine keeps it in the stack and the next `up` carries on; the machine
 * itself is left alone.
 */
import { MachineWatcher } from "../../../src/provider/machine/machineWatcher";
import type { Machine } from "../../../src/contract/schemas";
import { providerContext } from "../../../src/provider/account/context";
import {
  checkedMachine,
  nextUpAfter,
  partialFailureOf,
  providersOn,
  useProviderKit,
} from "./providerTestKit";
import { hasName } from "../../kit/machines";

type Props = Record<string, unknown>;

const kit = useProviderKit();
afterEach(() => jest.restoreAllMocks());

/** Machine `name` of this test, declaring that name, as `check` makes it. */
const checked = (name: string, overrides: Props = {}) => checkedMachine(kit, name, { name, ...overrides });

/**
 * Someone undoes every settle: each time a wait of the provider sees the machine reach `reached`,
 * the machine is at once sent the other way (`undo`), and the wait reports it as re-read then.
 * A real wait only ever returns the state it waited for, so against the emulator alone a create
 * or update settles (or fails its wait) within two legs and the leg budget never runs out: this
 * is the one way to drive `settleMachine` to its `SettleError` through the real provider.
 */
function undoEachSettle(reached: "ready" | "off", undo: "stop" | "start") {
  const realWaitFor = MachineWatcher.prototype.waitFor;
  return jest.spyOn(MachineWatcher.prototype, "waitFor").mockImplementation(async function (
    this: MachineWatcher,
    client,
    id,
    state,
    options,
  ): Promise<Machine> {
    const machine = await realWaitFor.call(this, client, id, state, options);
    if (machine.state !== reached) return machine;
    await kit.client().machines[undo](id);
    return client.machines.get(id);
  });
}

describe("a machine that never settles in its declared state", () => {
  it("create: stopped out of band each time it is ready → SettleError becomes a partial failure with the machine's id, declared ready, observed off", async () => {
    const declared = await checked("settle-create");
    const waits = undoEachSettle("ready", "stop");
    const failure = await partialFailureOf(kit.providers.machine.create(declared, kit.settings));
    expect(waits).toHaveBeenCalledTimes(4);
    expect(failure.message).toMatch(/machine settle-create \(ps\w+\) is off, not ready, after 4 waits/);
    const [machine] = await kit.client().machines.list({ name: "settle-create" });
    expect(failure.id).toBe(machine.id);
    expect(failure.properties).toMatchObject({
      machineId: machine.id,
      state: "ready",
      currentState: "off",
    });
    // The machine is kept, as it is: nothing deleted it.
    expect(machine.state).toBe("off");
    // The next up carries on in place: the observed state differs from the declared one.
    waits.mockRestore();
    expect(await nextUpAfter(kit, failure, declared)).toMatchObject({
      machineId: machine.id,
      state: "ready",
      currentState: "ready",
    });
  });

  it("update: declared off, started out of band each time it is off → partial failure with the id, declared off, observed ready", async () => {
    const { id, outs } = await kit.providers.machine.create(await checked("settle-update"), kit.settings);
    expect(outs).toMatchObject({ currentState: "ready" });
    const news: Props = { ...outs, state: "off" };
    undoEachSettle("off", "start");
    const failure = await partialFailureOf(kit.providers.machine.update(id, outs, news, kit.settings));
    expect(failure.message).toMatch(
      new RegExp(`machine settle-update \\(${id}\\) is ready, not off, after 4 waits`),
    );
    expect(failure.id).toBe(id);
    expect(failure.properties).toMatchObject({ machineId: id, state: "off", currentState: "ready" });
    expect((await kit.client().machines.get(id)).state).toBe("ready");
  });

  it("create: stopped out of band once it comes up (real waits, timing injection only) → partial failure with the id, declared ready, observed off", async () => {
    // The stopper acts in the provider's own sleeps: between any two polls, a machine that came
    // up is stopped, so the provider's wait never sees it ready.
    const stopped: string[] = [];
    const stopper = async () => {
      for (const m of (await kit.client().machines.list()).filter((m) => hasName(m, "stopped-by-hand"))) {
        if (m.state === "ready" || m.state === "serviceready") {
          await kit.client().machines.stop(m.id);
          stopped.push(m.id);
        }
      }
    };
    const clock = kit.clock.fork(stopper);
    const context = providerContext({ ...kit.context, timing: { ...kit.context.timing, ...clock.timing() } });
    const provider = providersOn(context, kit.settings).machine;
    const failure = await partialFailureOf(provider.create(await checked("stopped-by-hand"), kit.settings));
    const [machine] = (await kit.client().machines.list()).filter((m) => hasName(m, "stopped-by-hand"));
    expect(stopped).toContain(machine.id);
    expect(failure.id).toBe(machine.id);
    expect(failure.properties).toMatchObject({ machineId: machine.id, state: "ready", currentState: "off" });
    expect(failure.message).toMatch(new RegExp(`machine ${machine.id} is off with nothing pending`));
    expect(machine.state).toBe("off");
  });
});
