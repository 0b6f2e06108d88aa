/**
 * MachineRestart through its provider on the emulator's manual clock: a changed trigger restarts
 * the machine once and waits until it is ready; a machine declared off is left alone; a new
 * machine replaces the restart instead of restarting; a restart that does not come back in time
 * is a partial failure that the next update waits for, without restarting again.
 */
import { MACHINE_BASICS } from "../../kit/machines";
import { partialFailureOf, requestCounts, useProviderKit } from "./providerTestKit";

type Props = Record<string, unknown>;
const RESTART = "POST /machines/{machineId}/restart";

const kit = useProviderKit();

const provider = () => kit.providers.restart;

/** A machine made and ready. */
async function readyMachine(name: string): Promise<string> {
  const client = kit.client();
  const made = await client.machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: kit.templateId,
  });
  kit.advance(10 * 60_000);
  return made.id;
}

async function checked(news: Props): Promise<Props> {
  const { inputs, failures } = await provider().check({}, news, kit.settings);
  expect(failures).toEqual([]);
  return inputs;
}

const restarts = async () => (await requestCounts(kit))[RESTART] ?? 0;

describe("MachineRestart", () => {
  it("check: triggers not a list, state not a power state → failures naming each; state defaults to ready", async () => {
    const { failures } = await provider().check(
      {},
      { machineId: "ps1", triggers: "x", state: "on" },
      kit.settings,
    );
    expect(failures.map((f) => f.property).sort()).toEqual(["state", "triggers"]);
    expect((await checked({ machineId: "ps1", triggers: [] })).state).toBe("ready");
  });

  it("check: a fractional waitTimeoutSeconds (the schema says integer) → failure naming it", async () => {
    const { failures } = await provider().check(
      {},
      { machineId: "ps1", triggers: [], waitTimeoutSeconds: 2.5 },
      kit.settings,
    );
    expect(failures).toEqual([
      {
        property: "waitTimeoutSeconds",
        reason: "waitTimeoutSeconds must be a positive whole number of seconds (got 2.5)",
      },
    ]);
  });

  it("create → no restart (the triggers are declared now); update with a changed trigger → one restart, ready, the restart's time recorded", async () => {
    const machineId = await readyMachine("restarted-box");
    const first = await checked({ machineId, triggers: ["a"] });
    const before = await restarts();
    const { id, outs } = await provider().create(first, kit.settings);
    expect(await restarts()).toBe(before);

    const news = await checked({ machineId, triggers: ["b"] });
    expect(await provider().diff(id, outs, news)).toEqual({
      changes: true,
      replaces: [],
      changed: ["triggers"],
    });
    const updated = await provider().update(id, outs, news, kit.settings);
    expect((await restarts()) - before).toBe(1);
    expect(updated.outs).toMatchObject({
      triggers: ["b"],
      currentState: "ready",
      restartedAt: expect.any(String),
    });
    expect(await provider().diff(id, updated.outs, news)).toEqual({
      changes: false,
      replaces: [],
      changed: [],
    });
    expect((await kit.client().machines.get(machineId)).state).toBe("ready");
  });

  it("diff: a new machine id (the machine was replaced) → a replacement, whose create restarts nothing", async () => {
    const machineId = await readyMachine("replaced-box");
    const olds = await checked({ machineId: "ps-old", triggers: ["a"] });
    const news = await checked({ machineId, triggers: ["b"] });
    expect(await provider().diff("ps-old/restart", olds, news)).toEqual({
      changes: true,
      replaces: ["machineId"],
      changed: ["machineId", "triggers"],
    });
    const before = await restarts();
    await provider().create(news, kit.settings);
    expect(await restarts()).toBe(before);
  });

  it("update: declared off → no restart, no start; the progress says why", async () => {
    const machineId = await readyMachine("off-box");
    const olds = await checked({ machineId, triggers: ["a"], state: "off" });
    const news = await checked({ machineId, triggers: ["b"], state: "off" });
    const before = await restarts();
    kit.progress.length = 0;
    await provider().update(`${machineId}/restart`, olds, news, kit.settings);
    expect(await restarts()).toBe(before);
    expect(kit.progress).toContainEqual(
      expect.stringContaining("declared off: not started, nothing restarted"),
    );
  });

  it("update: the restart does not come back within waitTimeoutSeconds → partial failure recording the state; the next update waits without restarting again", async () => {
    const machineId = await readyMachine("slow-box");
    const olds = await checked({ machineId, triggers: ["a"] });
    // A restart takes 45 s on the emulator's clock: 10 s is not enough.
    const news = await checked({ machineId, triggers: ["b"], waitTimeoutSeconds: 10 });
    const before = await restarts();
    const failure = await partialFailureOf(
      provider().update(`${machineId}/restart`, olds, news, kit.settings),
    );
    expect(failure.properties).toMatchObject({ triggers: ["b"], currentState: "restarting" });
    expect(failure.message).toMatch(/waitTimeoutSeconds \(10\)/);

    const next = await checked({ machineId, triggers: ["b"] });
    expect(await provider().diff(failure.id, failure.properties, next)).toMatchObject({ changes: true });
    const done = await provider().update(failure.id, failure.properties, next, kit.settings);
    expect(done.outs).toMatchObject({ currentState: "ready" });
    expect((await restarts()) - before).toBe(1);
  });
});
