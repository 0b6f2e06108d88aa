/**
 * Creates of a fleet on the emulator's manual clock: the creates that start together share one
 * listing of the machines (leftovers.ts), and their waits end on the watcher's listing that sees
 * them in their state, without a show each (machineWatcher.ts), while every guarantee of a
 * create stays: a namesake that already exists (a machine kept by retainOnDelete has this very
 * auto-name) is never taken for the one a lost answer made. Requests are counted with the
 * emulator's `requestCounts`.
 */
import { accountOf } from "../../../src/provider/account/accounts";
import { providerContext, type ProviderContext } from "../../../src/provider/account/context";
import { machineWatcherFor } from "../../../src/provider/machine/machineWatcher";
import { LeftoverError, machineListingsFor } from "../../../src/provider/machine/leftovers";
import {
  checkedMachine,
  MACHINE_BASICS,
  providersOn,
  requestCounts,
  requestsSince,
  useProviderKit,
} from "./providerTestKit";

type Props = Record<string, unknown>;

const kit = useProviderKit();

/** Inputs as `check` makes them for an auto-named Machine (no name declared). */
async function autoNamed(resourceName: string): Promise<Props> {
  const inputs = await checkedMachine(kit, resourceName);
  expect(inputs.__autoNamed).toBe(true);
  return inputs;
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
      inputs.map((i) => providersOn(context, kit.settings).machine.create(i, kit.settings)),
    );
    const requests = await requestsSince(kit, before);

    expect(created.map((c) => c.outs?.currentState)).toEqual(inputs.map(() => "ready"));
    // Ended on a listing: no events (a show would list the create event).
    const listed = created.filter((c) => (c.outs?.events as unknown[]).length === 0);
    expect(listed.length).toBeGreaterThanOrEqual(5);
    expect(requests.createMachine).toBe(6);
    expect(machineListingsFor(accountOf(kit.settings, context)).listings).toBe(1);
    // Every listing is the shared one of namesakes or one of the watcher's: none per machine.
    expect(requests.listMachines).toBe(1 + machineWatcherFor(accountOf(kit.settings, context)).listings);
    // Before: one show per machine at least (each wait ended on its show). Now only a wait alone
    // in its round (on this clock, the last one left) is shown: one request either way.
    expect(requests.showMachine).toBeLessThan(6);
  });

  it("create: 6 auto-named machines at once, one auto-name already held by a kept machine of the same spec, every POST's answer lost → one shared listing of namesakes; that create stops naming the kept machine and adoptMachineId, the others take the machine each made", async () => {
    const inputs = await Promise.all(Array.from({ length: 6 }, (_, i) => autoNamed(`fleet-kept-${i}`)));
    const keptName = String(inputs[3].name);
    const kept = await kit
      .client()
      .machines.create(
        { ...MACHINE_BASICS, templateId: kit.templateId, machineName: keptName },
        { uniqueName: true },
      );
    kit.advance(10 * 60_000);
    const context = freshContext();
    // The API makes each machine but its answer never arrives.
    await kit.control.addFaults([
      { method: "POST", route: "/machines/createSingleMachinePublic", dropResponse: true, times: 5 },
    ]);
    const results = await Promise.allSettled(
      inputs.map((i) => providersOn(context, kit.settings).machine.create(i, kit.settings)),
    );

    const refused = results[3];
    expect(refused.status).toBe("rejected");
    const reason = (refused as PromiseRejectedResult).reason as Error;
    expect(reason).toBeInstanceOf(LeftoverError);
    expect(reason.message).toContain(`adoptMachineId: "${kept.id}"`);
    expect(await liveNamed(keptName)).toEqual([kept.id]);
    const created = results
      .filter((r, i) => i !== 3)
      .map((r) => (r as PromiseFulfilledResult<{ id: string }>).value);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(new Set(created.map((c) => c.id)).size).toBe(5);
    expect(created.map((c) => c.id)).not.toContain(kept.id);
    for (const [i, c] of results.entries()) {
      if (i === 3) continue;
      expect(await liveNamed(String(inputs[i].name))).toEqual([
        (c as PromiseFulfilledResult<{ id: string }>).value.id,
      ]);
    }
    expect(machineListingsFor(accountOf(kit.settings, context)).listings).toBe(1);
    expect((await kit.control.state()).faults).toEqual([]);
  });

  it("create: a machine alone → one listing of the account for its two names (creating name and auto-name), and its wait shown (its outputs have its events)", async () => {
    const inputs = await autoNamed("fleet-alone");
    const context = freshContext();
    const before = await requestCounts(kit);
    const { outs } = await providersOn(context, kit.settings).machine.create(inputs, kit.settings);
    const requests = await requestsSince(kit, before);

    expect(outs?.currentState).toBe("ready");
    expect((outs?.events as unknown[]).length).toBeGreaterThan(0);
    expect(machineListingsFor(accountOf(kit.settings, context)).listings).toBe(1);
    expect(machineWatcherFor(accountOf(kit.settings, context)).listings).toBe(0);
    expect(requests.listMachines).toBe(1);
    expect(requests.showMachine).toBeGreaterThan(0);
  });
});
