import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import { UNKNOWN } from "../../../src/provider/shared/unknown";
import { nextUpAfter, useProviderKit } from "./providerTestKit";
import { MACHINE_BASICS, resourceOfThisTest } from "../../kit/machines";

const kit = useProviderKit();
let windowsTemplate: string;

beforeAll(async () => {
  const templates = await kit.client().templates.list();
  windowsTemplate = templates.find((t) => t.os.toLowerCase().startsWith("windows"))!.id;
});

function inputs(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...resourceOfThisTest("trainer"),
    __provider: "serialized-provider-text",
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    ...overrides,
  };
}

async function checked(overrides: Record<string, unknown> = {}) {
  const result = await kit.providers.machine.check({}, inputs(overrides), kit.settings);
  expect(result.failures).toEqual([]);
  return result.inputs as Record<string, unknown>;
}

describe("Machine check", () => {
  it("check: no name → auto-named from the resource name, default state ready", async () => {
    const result = await checked();
    expect(result.name).toMatch(/^trainer-[a-z0-9]{7}$/);
    expect(result.state).toBe("ready");
  });

  it("check: same resource again → keeps the auto-name; without olds (replacement) → a new one", async () => {
    const first = await checked();
    const again = await kit.providers.machine.check(first, inputs(), kit.settings);
    expect((again.inputs as Record<string, unknown>).name).toBe(first.name);
    const fresh = await kit.providers.machine.check({}, inputs(), kit.settings);
    expect((fresh.inputs as Record<string, unknown>).name).not.toBe(first.name);
  });

  it("check: unknown region → failure naming region and the allowed values", async () => {
    const { failures } = await kit.providers.machine.check({}, inputs({ region: "Mars" }), kit.settings);
    expect(failures).toEqual([
      {
        property: "region",
        reason: expect.stringContaining("West Coast (CA1), East Coast (NY2), Europe (AMS1)"),
      },
    ]);
  });

  it("check: both public-IP flags → failure on dynamicPublicIp", async () => {
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ assignPublicIp: true, dynamicPublicIp: true }),
      kit.settings,
    );
    expect(failures!.map((f) => f.property)).toEqual(["dynamicPublicIp"]);
  });

  it("check: Windows template with C4 → failure on machineType, and no machine is created", async () => {
    const before = (await kit.control.state()).requestCounts["POST /machines/createSingleMachinePublic"] ?? 0;
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ templateId: windowsTemplate }),
      kit.settings,
    );
    expect(failures).toEqual([
      { property: "machineType", reason: expect.stringContaining("Windows template") },
    ]);
    const after = (await kit.control.state()).requestCounts["POST /machines/createSingleMachinePublic"] ?? 0;
    expect(after).toBe(before);
  });

  it("check: unknown values at preview → no failure", async () => {
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ region: UNKNOWN, templateId: UNKNOWN, size: UNKNOWN, state: UNKNOWN }),
      kit.settings,
    );
    expect(failures).toEqual([]);
  });

  it("check: bad state and wait timeout → failures naming them", async () => {
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ state: "on", waitTimeoutSeconds: -1 }),
      kit.settings,
    );
    expect(failures!.map((f) => f.property).sort()).toEqual(["state", "waitTimeoutSeconds"]);
    expect(failures!.find((f) => f.property === "state")!.reason).toContain("ready, off");
  });

  it("check: a fractional wait timeout (the schema says integer) → failure naming waitTimeoutSeconds and the whole seconds it takes", async () => {
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ waitTimeoutSeconds: 1.5 }),
      kit.settings,
    );
    expect(failures).toEqual([
      {
        property: "waitTimeoutSeconds",
        reason: "waitTimeoutSeconds must be a whole number of seconds between 1 and 86400 (got 1.5)",
      },
    ]);
  });
});

describe("Machine lifecycle through the provider", () => {
  it("create: waits until ready, outputs every machine field, reports progress", async () => {
    const declared = await checked({ shutdownTimeoutInHours: 3 });
    const { id, outs } = await kit.providers.machine.create(declared, kit.settings);
    expect(outs).toMatchObject({
      machineId: id,
      currentState: "ready",
      state: "ready",
      name: declared.name,
      shutdownTimeoutInHours: 3,
      region: "East Coast (NY2)",
    });
    expect((outs.events as unknown[]).length).toBeGreaterThan(0);
    expect(kit.progress.some((line) => line.includes(id) && line.includes("waiting for ready"))).toBe(true);
  });

  it("create: state off → ends off without ever starting", async () => {
    const { id, outs } = await kit.providers.machine.create(await checked({ state: "off" }), kit.settings);
    expect(outs.currentState).toBe("off");
    expect((await kit.client().machines.get(id)).state).toBe("off");
  });

  it("update: rename and power off in place → same id, API reflects both", async () => {
    const declared = await checked();
    const { id, outs } = await kit.providers.machine.create(declared, kit.settings);
    const news: Record<string, unknown> = { ...declared, name: "renamed-box", state: "off" };
    const diff = await kit.providers.machine.diff(id, outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const updated = await kit.providers.machine.update(id, outs, news, kit.settings);
    expect(updated.outs).toMatchObject({ name: "renamed-box", currentState: "off", state: "off" });
    const machine = await kit.client().machines.get(id);
    expect([machine.name, machine.state]).toEqual(["renamed-box", "off"]);
  });

  it("read: stopped and renamed out of band → drift in outputs and inputs; gone → empty", async () => {
    const declared = await checked();
    const { id, outs } = await kit.providers.machine.create(declared, kit.settings);
    await kit.client().machines.update(id, { machineName: "changed-by-hand" });
    await kit.client().machines.stop(id);
    kit.advance(5 * 60_000);
    const read = await kit.providers.machine.read(id, outs, kit.settings);
    expect(read.props).toMatchObject({ name: "changed-by-hand", state: "ready", currentState: "off" });
    expect(read.inputs).toMatchObject({ name: "changed-by-hand", state: "off" });
    const diff = await kit.providers.machine.diff(id, read.props!, declared);
    expect(diff).toMatchObject({ changes: true, replaces: [] });

    await kit.providers.machine.delete(id, outs, kit.settings);
    expect(await kit.providers.machine.read(id, outs, kit.settings)).toEqual({});
  });

  it("delete: waits until gone; a machine already gone → success", async () => {
    const { id, outs } = await kit.providers.machine.create(await checked(), kit.settings);
    await kit.providers.machine.delete(id, outs, kit.settings);
    const state = await kit.control.state();
    expect(state.machines.find((m) => m.id === id)?.dtDestroyed).toBeTruthy();
    await expect(kit.providers.machine.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });

  it("create: adoptMachineId → manages the existing machine, no new machine", async () => {
    const existing = await kit.client().machines.create({
      region: "Europe (AMS1)",
      machineType: "C2",
      size: 50,
      billingType: "hourly",
      machineName: "made-elsewhere",
      templateId: kit.templateId,
    });
    const before = (await kit.control.state()).machines.length;
    const matching = { region: "Europe (AMS1)", machineType: "C2", name: "made-elsewhere" };
    const declared = await checked({ adoptMachineId: existing.id, ...matching });
    const { id, outs } = await kit.providers.machine.create(declared, kit.settings);
    expect(id).toBe(existing.id);
    expect(outs).toMatchObject({ name: "made-elsewhere", currentState: "ready" });
    expect((await kit.control.state()).machines.length).toBe(before);
  });

  it("check and create: adoptMachineId unknown → failure and error naming adoptMachineId", async () => {
    const news = inputs({ adoptMachineId: "psnothere" });
    const { failures } = await kit.providers.machine.check({}, news, kit.settings);
    expect(failures).toEqual([
      { property: "adoptMachineId", reason: expect.stringMatching(/psnothere not found/) },
    ]);
    await expect(kit.providers.machine.create({ ...news, state: "ready" }, kit.settings)).rejects.toThrow(
      /adoptMachineId: machine psnothere not found/,
    );
  });

  it("create: start fails for capacity → partial failure with id and properties; next update completes it", async () => {
    await kit.control.capacity({ region: "Europe (AMS1)", machineType: "C5", failNextStarts: 1 });
    // A resource name of its own: auto-names are fixed per resource, and this file's others are "trainer".
    const declared = await checked({ __resourceName: "short", region: "Europe (AMS1)", machineType: "C5" });
    const error = await kit.providers.machine.create(declared, kit.settings).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResourceInitError);
    const failure = error as ResourceInitError;
    expect(failure.message).toMatch(/capacity/i);
    expect(failure.id).toMatch(/^ps/);
    expect(failure.properties).toMatchObject({
      machineId: failure.id,
      __provider: "serialized-provider-text",
    });
    // The engine keeps it in state; the next up diffs and updates toward `ready`.
    expect((await nextUpAfter(kit, failure, declared)).currentState).toBe("ready");
    const machines = (await kit.control.state()).machines.filter((m) => m.name === declared.name);
    expect(machines).toHaveLength(1);
  });

  it("create: wait times out → partial failure naming the last state", async () => {
    const declared = await checked({ waitTimeoutSeconds: 5 });
    await expect(kit.providers.machine.create(declared, kit.settings)).rejects.toMatchObject({
      id: expect.stringMatching(/^ps/),
      message: expect.stringMatching(/provisioning/),
    });
  });
});

describe("Machine check messages", () => {
  it("check: a control character in the name → the failure is reported once, not twice", async () => {
    const { failures } = await kit.providers.machine.check(
      {},
      inputs({ name: "bad\u0007name" }),
      kit.settings,
    );
    expect(failures).toEqual([{ property: "name", reason: expect.stringContaining("control characters") }]);
  });
});
