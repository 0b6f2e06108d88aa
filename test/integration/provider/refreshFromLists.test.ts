/**
 * Refresh from lists (listSnapshot.ts): reads arriving together share one listing per account
 * and kind; a read alone costs one show; a resource missing from the listing leaves the stack
 * only on its own 404 (and a machine only when its owner is in the key's account); what a list
 * gives equals what a show gives. Requests are counted with the emulator's `requestCounts`.
 */
import { providerContext } from "../../../src/provider/account/context";
import { machineOutputs } from "../../../src/provider/machine/machineModel";
import { MACHINE_BASICS, providersOn, requestCounts, requestsSince, useProviderKit } from "./providerTestKit";

type Props = Record<string, unknown>;

const kit = useProviderKit();

/**
 * `n` settled machines, each with the outputs a create would have recorded
 * (taken from a show, as the provider does).
 */
async function machinesInState(prefix: string, n: number) {
  const client = kit.client();
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const body = { ...MACHINE_BASICS, templateId: kit.templateId, machineName: `${prefix}-${i}` };
    ids.push((await client.machines.create(body, { uniqueName: true })).id);
  }
  kit.advance(10 * 60_000);
  const recorded: Props[] = [];
  for (const [i, id] of ids.entries()) {
    const declared = {
      name: `${prefix}-${i}`,
      ...MACHINE_BASICS,
      templateId: kit.templateId,
      state: "ready",
    };
    recorded.push(machineOutputs(declared, await client.machines.get(id)));
  }
  return ids.map((id, i) => ({ id, props: recorded[i] }));
}

/** Providers on a context of their own: no listing of an earlier test can serve their reads. */
function freshProviders() {
  return providersOn(providerContext({ ...kit.context }), kit.settings);
}

/** Reads together, as a refresh does, on a context of their own (no earlier test's listing). */
function readMachines(machines: { id: string; props: Props }[]) {
  const provider = freshProviders().machine;
  return Promise.all(machines.map((m) => provider.read(m.id, m.props, kit.settings)));
}

describe("refresh of machines from one listing", () => {
  it("read: 50 machines together → at most 2 list requests and no show; each result equals what a show gives", async () => {
    const machines = await machinesInState("refresh-fleet", 50);
    // Someone stops one: the listing shows it off, and only that one is read alone (its events).
    await kit.client().machines.stop(machines[7].id);
    kit.advance(5 * 60_000);
    const before = await requestCounts(kit);
    const reads = await readMachines(machines);
    const requests = await requestsSince(kit, before);

    expect(requests.listMachines).toBeLessThanOrEqual(2);
    expect(requests.showMachine).toBe(1);
    expect(reads.map((r) => r.id)).toEqual(machines.map((m) => m.id));
    expect(reads[7].props).toMatchObject({ state: "ready", currentState: "off" });
    const client = kit.client();
    for (const [i, machine] of machines.entries()) {
      const shown = machineOutputs(machine.props, await client.machines.get(machine.id));
      expect(reads[i].props).toEqual(shown);
    }
  });

  it("read: 50 unchanged machines together → no show at all", async () => {
    const machines = await machinesInState("refresh-still", 50);
    const before = await requestCounts(kit);
    const reads = await readMachines(machines);
    const requests = await requestsSince(kit, before);
    expect(requests).toMatchObject({ showMachine: 0 });
    expect(requests.listMachines).toBeLessThanOrEqual(2);
    expect(reads.map((r) => r.props)).toEqual(machines.map((m) => m.props));
  });

  it("read: a machine deleted out of band, among 10 read together → confirmed by its own 404 before it leaves the stack; the others come from the listing", async () => {
    const machines = await machinesInState("refresh-gone", 10);
    await kit.client().machines.destroy(machines[3].id);
    const before = await requestCounts(kit);
    const reads = await readMachines(machines);
    const requests = await requestsSince(kit, before);

    expect(reads[3]).toEqual({});
    expect(reads.filter((r) => r.id !== undefined)).toHaveLength(9);
    expect(requests.showMachine).toBe(1); // its own 404
    expect(requests.listMachines).toBeLessThanOrEqual(2);
  });

  it("read: machines read together with another account's key (the stack's key changed) → missing from that listing, their 404s prove nothing: refresh fails naming the owner, nothing dropped", async () => {
    const machines = await machinesInState("refresh-other-key", 3);
    const otherKey = { ...kit.settings, apiKey: kit.keys.teamAdmin };
    const before = await requestCounts(kit);
    const provider = freshProviders().machine;
    const results = await Promise.allSettled(machines.map((m) => provider.read(m.id, m.props, otherKey)));
    const requests = await requestsSince(kit, before);
    for (const [i, result] of results.entries()) {
      expect(result).toMatchObject({
        status: "rejected",
        reason: expect.objectContaining({
          message: expect.stringMatching(
            new RegExp(`machine ${machines[i].id} belongs to user .*not in the account of the API key`),
          ),
        }),
      });
    }
    expect(requests).toMatchObject({ listMachines: 1, showMachine: 3 });
  });

  it("read: reads in waves (the engine runs a few at a time) → the first wave's listing serves the next ones; a machine made since is missing from it and read alone", async () => {
    const machines = await machinesInState("refresh-waves", 12);
    const provider = freshProviders().machine;
    const wave = (some: typeof machines) =>
      Promise.all(some.map((m) => provider.read(m.id, m.props, kit.settings)));
    const before = await requestCounts(kit);
    await wave(machines.slice(0, 4));
    const [later] = await machinesInState("refresh-waves-later", 1);
    const reads = [...(await wave(machines.slice(4, 8))), ...(await wave([...machines.slice(8), later]))];
    const requests = await requestsSince(kit, before);
    expect(reads.map((r) => r.id)).toEqual([...machines.slice(4).map((m) => m.id), later.id]);
    expect(requests.listMachines).toBe(1);
    expect(requests.showMachine).toBe(1 + 1); // the later one alone; machinesInState's own show
  });

  it("read: one machine alone (`get`, `refresh --target`) → one show, no listing", async () => {
    const [machine] = await machinesInState("refresh-alone", 1);
    const before = await requestCounts(kit);
    const read = await freshProviders().machine.read(machine.id, machine.props, kit.settings);
    expect(read.id).toBe(machine.id);
    expect(await requestsSince(kit, before)).toMatchObject({ showMachine: 1, listMachines: 0 });
  });
});

describe("refresh of scripts from one listing", () => {
  async function scripts(prefix: string, n: number) {
    const made: { id: string; props: Props }[] = [];
    for (let i = 0; i < n; i++) {
      const news = { __resourceName: `${prefix}-${i}`, scriptText: `echo ${i}` };
      const { inputs } = await kit.providers.script.check({}, news, kit.settings);
      const { id, outs } = await kit.providers.script.create(inputs!, kit.settings);
      made.push({ id, props: outs! });
    }
    return made;
  }

  it("read: 50 scripts together → at most 2 list requests and no show; each result equals what a show gives", async () => {
    const made = await scripts("refresh-script", 50);
    const before = await requestCounts(kit);
    const provider = freshProviders().script;
    const reads = await Promise.all(made.map((s) => provider.read(s.id, s.props, kit.settings)));
    const requests = await requestsSince(kit, before);

    expect(requests.listScripts).toBeLessThanOrEqual(2);
    expect(requests.showScript).toBe(0);
    const alone = [];
    for (const s of made) alone.push(await freshProviders().script.read(s.id, s.props, kit.settings));
    expect(reads).toEqual(alone);
  });

  it("read: a script deleted out of band, among scripts read together → gone only by its own 404", async () => {
    const made = await scripts("refresh-script-gone", 5);
    await kit.client().scripts.destroy(made[2].id);
    const before = await requestCounts(kit);
    const provider = freshProviders().script;
    const reads = await Promise.all(made.map((s) => provider.read(s.id, s.props, kit.settings)));
    const requests = await requestsSince(kit, before);
    expect(reads[2]).toEqual({});
    expect(reads.filter((r) => r.id !== undefined)).toHaveLength(4);
    expect(requests.showScript).toBe(1);
  });

  it("read: one script alone → one show, no listing", async () => {
    const [script] = await scripts("refresh-script-alone", 1);
    const before = await requestCounts(kit);
    expect((await freshProviders().script.read(script.id, script.props, kit.settings)).id).toBe(script.id);
    expect(await requestsSince(kit, before)).toMatchObject({ showScript: 1, listScripts: 0 });
  });
});
