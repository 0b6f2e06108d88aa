/**
 * Creates of a fleet on the emulator's manual clock: the creates that start together share one
 * listing of namesakes (namesakes.ts), and their waits end on the watcher's listing that sees
 * them in their state, without a show each (machineWatcher.ts), while every guarantee of a
 * create stays: a namesake that already exists (a machine kept by retainOnDelete has this very
 * auto-name) is never taken for the one a lost answer made. Requests are counted with the
 * emulator's `requestCounts`.
 */
import { VmApiClient } from "../../../src/client/client";
import { providerContext, type ProviderContext } from "../../../src/provider/shared/context";
import { machineWatcherFor } from "../../../src/provider/machine/machineWatcher";
import { namesakeListingsFor } from "../../../src/provider/machine/namesakes";
import {
  MACHINE_BASICS,
  providersOn,
  requestCounts,
  requestsSince,
  useProviderKit,
  type ProviderKit,
} from "./providerTestKit";

type Props = Record<string, unknown>;

let kit: ProviderKit;
let templateId: string;
useProviderKit((started, template) => {
  kit = started;
  templateId = template;
});

/** Inputs as `check` makes them for an auto-named Machine (no name declared). */
async function autoNamed(resourceName: string): Promise<Props> {
  const news = { __resourceName: resourceName, ...MACHINE_BASICS, templateId };
  const { inputs, failures } = await kit.providers.machine.check({}, news, kit.settings);
  expect(failures).toEqual([]);
  expect(inputs!.__autoNamed).toBe(true);
  return inputs!;
}

/** A context of its own: no listing or watcher of an earlier test serves these creates. */
function freshContext(): ProviderContext {
  return providerContext({ ...kit.context });
}

async function liveNamed(name: string): Promise<string[]> {
  const machines = (await kit.control.state()).machines;
  return machines.filter((m) => m.name === name && m.dtDestroyed === null).map((m) => m.id);
}

describe("creates of a fleet", () => {
  it("create: 6 auto-named machines at once → one listing of namesakes for all, and no show per machine: the waits end on the listing that sees them ready (outputs without events)", async () => {
    const inputs = await Promise.all(Array.from({ length: 6 }, (_, i) => autoNamed(`fleet-plain-${i}`)));
    const context = freshContext();
    const before = await requestCounts(kit);
    const created = await Promise.all(
      inputs.map((i) => providersOn(context).machine.create(i, kit.settings)),
    );
    const requests = await requestsSince(kit, before);

    expect(created.map((c) => c.outs?.currentState)).toEqual(inputs.map(() => "ready"));
    // Ended on a listing: no events (a show would list the create event).
    const listed = created.filter((c) => (c.outs?.events as unknown[]).length === 0);
    expect(listed.length).toBeGreaterThanOrEqual(5);
    expect(requests.createMachine).toBe(6);
    expect(namesakeListingsFor(context, kit.settings).listings).toBe(1);
    // Every listing is the shared one of namesakes or one of the watcher's: none per machine.
    expect(requests.listMachines).toBe(1 + machineWatcherFor(context, kit.settings).listings);
    // Before: one show per machine at least (each wait ended on its show). Now only a wait alone
    // in its round (on this clock, the last one left) is shown: one request either way.
    expect(requests.showMachine).toBeLessThan(6);
  });

  it("create: 6 auto-named machines at once, one auto-name already held by a kept machine of the same spec, every POST's answer lost → one shared listing of namesakes; each create takes the machine it made, never the kept one", async () => {
    const inputs = await Promise.all(Array.from({ length: 6 }, (_, i) => autoNamed(`fleet-kept-${i}`)));
    const keptName = String(inputs[3].name);
    const kept = await new VmApiClient(kit.settings).machines.create(
      { ...MACHINE_BASICS, templateId, machineName: keptName },
      { uniqueName: true },
    );
    kit.advance(10 * 60_000);
    const context = freshContext();
    // The API makes each machine but its answer never arrives.
    await kit.control.addFaults([
      { method: "POST", route: "/machines/createSingleMachinePublic", dropResponse: true, times: 6 },
    ]);
    const created = await Promise.all(
      inputs.map((i) => providersOn(context).machine.create(i, kit.settings)),
    );

    const ids = created.map((c) => c.id);
    expect(new Set(ids).size).toBe(6);
    expect(ids).not.toContain(kept.id);
    expect((await liveNamed(keptName)).sort()).toEqual([kept.id, created[3].id].sort());
    for (const [i, c] of created.entries()) expect(await liveNamed(String(inputs[i].name))).toContain(c.id);
    expect(namesakeListingsFor(context, kit.settings).listings).toBe(1);
    expect((await kit.control.state()).faults).toEqual([]);
  });

  it("create: a machine alone → its namesakes listed by name and its wait shown, as before (its outputs have its events)", async () => {
    const inputs = await autoNamed("fleet-alone");
    const context = freshContext();
    const before = await requestCounts(kit);
    const { outs } = await providersOn(context).machine.create(inputs, kit.settings);
    const requests = await requestsSince(kit, before);

    expect(outs?.currentState).toBe("ready");
    expect((outs?.events as unknown[]).length).toBeGreaterThan(0);
    expect(namesakeListingsFor(context, kit.settings).listings).toBe(0);
    expect(machineWatcherFor(context, kit.settings).listings).toBe(0);
    expect(requests.listMachines).toBe(1);
    expect(requests.showMachine).toBeGreaterThan(0);
  });
});
