/**
 * The two power-state outputs: `state` is the declared power state ("ready" | "off"), and
 * `currentState` what the API last reported. State written by 0.1.0, whose `state` held the
 * observed value, still refreshes, updates and destroys.
 */
import legacy from "./fixtures/machine-0.1.0.json";
import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import { checkedMachine, useProviderKit } from "./providerTestKit";
import { MACHINE_BASICS } from "../../kit/machines";

type Props = Record<string, unknown>;

const kit = useProviderKit();

/** Machine "power" of this test, a C6 in AMS1, as `check` makes it. */
const checked = (overrides: Props = {}) =>
  checkedMachine(kit, "power", { region: "Europe (AMS1)", machineType: "C6", ...overrides });

/** The fixture's state for a real machine: `{ inputs, outputs }` as 0.1.0 stored them. */
function legacyState(machineId: string, overrides: Props = {}): { inputs: Props; outputs: Props } {
  const text = JSON.stringify({ inputs: legacy.inputs, outputs: legacy.outputs })
    .replaceAll("MACHINE_ID", machineId)
    .replaceAll("TEMPLATE_ID", kit.templateId);
  const state = JSON.parse(text) as { inputs: Props; outputs: Props };
  return { inputs: state.inputs, outputs: { ...state.outputs, ...overrides } };
}

async function machineMadeElsewhere(name: string): Promise<string> {
  const made = await kit.client().machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: kit.templateId,
  });
  kit.advance(10 * 60_000);
  return made.id;
}

describe("state and currentState", () => {
  it("create: start fails for capacity → partial failure whose state is the declared ready and currentState the observed off", async () => {
    await kit.control.capacity({ region: "Europe (AMS1)", machineType: "C6", failNextStarts: 1 });
    const declared = await checked();
    const failure = (await kit.providers.machine
      .create(declared, kit.settings)
      .catch((e: unknown) => e)) as ResourceInitError;
    expect(failure).toBeInstanceOf(ResourceInitError);
    expect(failure.properties).toMatchObject({ state: "ready", currentState: "off" });
    // The observed state differs from the declared one, so the next up carries on in place.
    const diff = await kit.providers.machine.diff(failure.id, failure.properties, declared);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await kit.providers.machine.update(
      failure.id,
      failure.properties,
      declared,
      kit.settings,
    );
    expect(outs).toMatchObject({ state: "ready", currentState: "ready" });
    expect(await kit.providers.machine.diff(failure.id, outs, declared)).toMatchObject({ changes: false });
  });

  it("read: stopped out of band → currentState off, declared state kept; the inputs show the drift", async () => {
    const { id, outs } = await kit.providers.machine.create(
      await checked({ machineType: "C2" }),
      kit.settings,
    );
    await kit.client().machines.stop(id);
    kit.advance(5 * 60_000);
    const read = await kit.providers.machine.read(id, outs, kit.settings);
    expect(read.props).toMatchObject({ state: "ready", currentState: "off" });
    expect(read.inputs).toMatchObject({ state: "off" });
  });
});

describe("state written by 0.1.0", () => {
  it("refresh, diff, update, delete: a settled machine from the fixture → all still work", async () => {
    const id = await machineMadeElsewhere("legacy-settled");
    const { inputs, outputs } = legacyState(id);
    await kit.client().machines.stop(id);
    kit.advance(5 * 60_000);
    const read = await kit.providers.machine.read(id, outputs, kit.settings);
    expect(read.props).toMatchObject({ machineId: id, state: "ready", currentState: "off" });
    const diff = await kit.providers.machine.diff(id, read.props!, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await kit.providers.machine.update(id, read.props!, inputs, kit.settings);
    expect(outs).toMatchObject({ state: "ready", currentState: "ready" });
    await kit.providers.machine.delete(id, outs, kit.settings);
    await expect(kit.client().machines.get(id)).rejects.toMatchObject({ status: 404 });
  });

  it.each([
    ["a machine seen starting", "starting", "ready"],
    ["a machine seen stopping", "stopping", "off"],
    ["a partial failure seen off", "off", "off"],
  ])(
    "read: 0.1.0 state of %s → declared state %s becomes %s, a power state",
    async (_label, seen, declared) => {
      const id = await machineMadeElsewhere(`legacy-${seen}`);
      const { outputs } = legacyState(id, { state: seen, currentState: seen });
      const read = await kit.providers.machine.read(id, outputs, kit.settings);
      expect(read.props).toMatchObject({ state: declared, currentState: "ready" });
    },
  );
});
