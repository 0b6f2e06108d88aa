/**
 * Delete and refresh never forget a live machine: only a genuine absence (a 404 status for the
 * machine, confirmed by a read, from a key whose account holds the machine's user) lets the
 * provider drop it; every other failure keeps it in state.
 */
import { checkedMachine, useProviderKit } from "./providerTestKit";

const kit = useProviderKit();
afterEach(() => kit.control.clearFaults());

async function runningMachine(name: string) {
  return kit.providers.machine.create(await checkedMachine(kit, name), kit.settings);
}

const DESTROY = { method: "POST", route: "/machines/{machineId}/destroyMachine" };

describe("Machine delete", () => {
  it("delete: destroy answers 400 'not found' while the machine runs → delete fails, the machine stays", async () => {
    const { id, outs } = await runningMachine("kept-400");
    await kit.control.addFaults([{ ...DESTROY, status: 400, code: "not_found" }]);
    await expect(kit.providers.machine.delete(id, outs, kit.settings)).rejects.toThrow(
      new RegExp(`machine ${id} still exists \\(state ready\\).*stays in the stack`),
    );
    expect((await kit.client().machines.get(id)).state).toBe("ready");
  });

  it("delete: destroy keeps failing with 500 → delete fails, the machine stays", async () => {
    const { id, outs } = await runningMachine("kept-500");
    await kit.control.addFaults([{ ...DESTROY, status: 500, times: 10 }]);
    await expect(kit.providers.machine.delete(id, outs, kit.settings)).rejects.toMatchObject({ status: 500 });
    expect((await kit.client().machines.get(id)).state).toBe("ready");
  });

  it("delete: machine destroyed out of band → success, once a read confirms it is gone", async () => {
    const { id, outs } = await runningMachine("gone-already");
    await kit.client().machines.destroy(id);
    await expect(kit.providers.machine.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });
});

describe("Machine update", () => {
  it("update: machine deleted out of band → error naming the machine and telling to run pulumi refresh", async () => {
    const { id, outs } = await runningMachine("deleted-by-hand");
    await kit.client().machines.destroy(id);
    const update = kit.providers.machine.update(
      id,
      outs,
      { ...outs, name: "renamed" } as Record<string, unknown>,
      kit.settings,
    );
    await expect(update).rejects.toThrow(new RegExp(`machine ${id} no longer exists.*pulumi refresh`));
  });
});

describe("Machine read (refresh)", () => {
  it("read: show answers 400 'not found' for a live machine → refresh fails instead of dropping it", async () => {
    const { id, outs } = await runningMachine("kept-on-refresh");
    await kit.control.addFaults([
      { method: "GET", route: "/machines/getMachinePublic", status: 400, code: "not_found" },
    ]);
    await expect(kit.providers.machine.read(id, outs, kit.settings)).rejects.toMatchObject({ status: 400 });
  });

  it("read: machine destroyed → empty result (the engine drops it)", async () => {
    const { id, outs } = await runningMachine("refresh-gone");
    await kit.client().machines.destroy(id);
    expect(await kit.providers.machine.read(id, outs, kit.settings)).toEqual({});
  });
});

describe("a key of another account", () => {
  // The API hides another account's machines behind the same 404 as a machine that is gone.
  const otherAccount = () => ({ ...kit.settings, apiKey: kit.keys.teamAdmin });

  it("read: the stack's key changed to another account's → refresh fails naming the owner; nothing dropped", async () => {
    const { id, outs } = await runningMachine("other-key-refresh");
    await expect(kit.providers.machine.read(id, outs, otherAccount())).rejects.toThrow(
      new RegExp(
        `machine ${id} belongs to user ${outs.userId}, who is not in the account of the API key in use.*stays in the stack`,
      ),
    );
    expect((await kit.client().machines.get(id)).state).toBe("ready");
  });

  it("delete: the stack's key changed to another account's → delete fails naming the owner; the machine runs on", async () => {
    const { id, outs } = await runningMachine("other-key-delete");
    await expect(kit.providers.machine.delete(id, outs, otherAccount())).rejects.toThrow(
      new RegExp(`machine ${id} belongs to user ${outs.userId}.*vmapi:apiKey`),
    );
    expect((await kit.client().machines.get(id)).state).toBe("ready");
  });

  it("read and delete: a machine that is gone, with the owner's own key → dropped as before", async () => {
    const { id, outs } = await runningMachine("gone-own-key");
    await kit.client().machines.destroy(id);
    expect(await kit.providers.machine.read(id, outs, kit.settings)).toEqual({});
    await expect(kit.providers.machine.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });
});
