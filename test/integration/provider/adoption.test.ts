/**
 * Adoption (`adoptMachineId`) is an import: it changes nothing. Every declared input the API
 * reports must match the machine, or adoption refuses before any change and adopts nothing;
 * when all match, the next diff shows no changes.
 */
import type { Machine as ApiMachine } from "../../../src/contract/schemas";
import { useProviderKit } from "./providerTestKit";
import { MACHINE_BASICS } from "../../kit/machines";

type Props = Record<string, unknown>;
const kit = useProviderKit();

/** A machine made outside the stack: NY2, C4, 50 GB, hourly, running. */
async function existing(name: string, options: { off?: boolean } = {}): Promise<ApiMachine> {
  const made = await kit.client().machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: kit.templateId,
    startOnCreate: !options.off,
  });
  kit.advance(10 * 60_000);
  return kit.client().machines.get(made.id);
}

/** Declared inputs that match `existing` exactly, plus overrides. */
function declared(machine: ApiMachine, overrides: Props = {}): Props {
  return {
    __resourceName: "adopted",
    adoptMachineId: machine.id,
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    ...overrides,
  };
}

async function checked(olds: Props, news: Props): Promise<Props> {
  const { inputs, failures } = await kit.providers.machine.check(olds, news, kit.settings);
  expect(failures).toEqual([]);
  return inputs!;
}

/** Runs create, bypassing check, as the engine would if preview had been skipped. */
async function adoptWithoutCheck(news: Props) {
  return kit.providers.machine.create({ state: "ready", ...news }, kit.settings);
}

describe("adoption refuses before any change", () => {
  it("create: NY2/C4 machine adopted with AMS1/C2 declared → refused listing both, declared vs actual; nothing adopted", async () => {
    const machine = await existing("made-in-ny2");
    const refusal = adoptWithoutCheck(declared(machine, { region: "Europe (AMS1)", machineType: "C2" }));
    await expect(refusal).rejects.toThrow(/region: declared "Europe \(AMS1\)", actual "East Coast \(NY2\)"/);
    await expect(refusal).rejects.toThrow(/machineType: declared "C2", actual "C4"/);
    await expect(refusal).rejects.not.toHaveProperty("id"); // not a partial failure: nothing in state
    expect(await kit.client().machines.get(machine.id)).toMatchObject({
      state: "ready",
      name: "made-in-ny2",
    });
  });

  it("create: declared size 100 and monthly for a 50 GB hourly machine → refused naming size and billingType", async () => {
    const machine = await existing("sized");
    const refusal = adoptWithoutCheck(declared(machine, { size: 100, billingType: "monthly" }));
    await expect(refusal).rejects.toThrow(/size: declared 100, actual 50/);
    await expect(refusal).rejects.toThrow(/billingType: declared "monthly", actual "hourly"/);
  });

  it("create: another name and state off declared for a running machine → refused; neither renamed nor stopped", async () => {
    const machine = await existing("keep-my-name");
    const refusal = adoptWithoutCheck(declared(machine, { name: "new-name", state: "off" }));
    await expect(refusal).rejects.toThrow(/name: declared "new-name", actual "keep-my-name"/);
    await expect(refusal).rejects.toThrow(/state: declared "off", actual "ready"/);
    expect(await kit.client().machines.get(machine.id)).toMatchObject({
      state: "ready",
      name: "keep-my-name",
    });
  });

  it("check and create: an off machine, state not declared (ready by default) → refused, not started", async () => {
    const machine = await existing("sleeping", { off: true });
    const { failures } = await kit.providers.machine.check({}, declared(machine), kit.settings);
    expect(failures).toEqual([
      {
        property: "state",
        reason: expect.stringMatching(/declared "ready", actual "off".*undeclared state means "ready"/),
      },
    ]);
    await expect(adoptWithoutCheck(declared(machine))).rejects.toThrow(
      /state: declared "ready", actual "off"/,
    );
    expect((await kit.client().machines.get(machine.id)).state).toBe("off");
    // Declared as it is, it is adopted, still off.
    const { outs } = await kit.providers.machine.create(
      await checked({}, declared(machine, { state: "off" })),
      kit.settings,
    );
    expect(outs).toMatchObject({ state: "off", currentState: "off" });
  });

  it("check: mismatching region at preview → failure naming region, declared vs actual", async () => {
    const machine = await existing("previewed");
    const { failures } = await kit.providers.machine.check(
      {},
      declared(machine, { region: "Europe (AMS1)" }),
      kit.settings,
    );
    expect(failures).toEqual([
      {
        property: "region",
        reason: expect.stringMatching(/declared "Europe \(AMS1\)", actual "East Coast \(NY2\)"/),
      },
    ]);
  });

  it("check: adoptMachineId with new-user fields → failure naming email (adoption creates no user)", async () => {
    const machine = await existing("with-user");
    const news = declared(machine, { email: "a@b.example", password: "pw", firstName: "A", lastName: "B" });
    const { failures } = await kit.providers.machine.check({}, news, kit.settings);
    expect(failures).toContainEqual({ property: "email", reason: expect.stringMatching(/adoptMachineId/) });
  });
});

describe("adoption when everything matches", () => {
  it("create: all declared inputs match, no name declared → adopted unchanged; the next diff shows no changes", async () => {
    const machine = await existing("exactly-so");
    const news = await checked({}, declared(machine));
    expect(news.name).toBeUndefined(); // no auto-name: the machine keeps its own
    const { id, outs } = await kit.providers.machine.create(news, kit.settings);
    expect(id).toBe(machine.id);
    expect(outs).toMatchObject({
      name: "exactly-so",
      state: "ready",
      currentState: "ready",
      region: "East Coast (NY2)",
    });
    const again = await checked(news, declared(machine));
    expect(await kit.providers.machine.diff(id, outs, again)).toMatchObject({ changes: false });
    // adoptMachineId removed afterwards: still no auto-name, still no change.
    const { adoptMachineId: _, ...without } = declared(machine);
    const later = await checked(news, without);
    expect(later.name).toBeUndefined();
    expect(await kit.providers.machine.diff(id, outs, later)).toMatchObject({ changes: false });
    expect(await kit.client().machines.get(machine.id)).toMatchObject({ state: "ready", name: "exactly-so" });
  });

  it("diff: a change that would replace the adopted machine while adoptMachineId still names it → refused", async () => {
    const machine = await existing("not-twice");
    const news = await checked({}, declared(machine));
    const { id, outs } = await kit.providers.machine.create(news, kit.settings);
    // A replacement would adopt the same machine again, then delete the old resource: that machine.
    await expect(kit.providers.machine.diff(id, outs, { ...news, machineType: "C5" })).rejects.toThrow(
      /machineType.*replace.*adoptMachineId still names machine/,
    );
  });
});
