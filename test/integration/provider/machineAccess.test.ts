/**
 * The MachineAccess provider against the emulator: a grant made and revoked, read back from its
 * id alone, and gone with its machine.
 */
import { useProviderKitWithMachine } from "./providerTestKit";

const kit = useProviderKitWithMachine();

describe("MachineAccess provider", () => {
  it("create grants, delete revokes (the emulator's grants reflect both)", async () => {
    const users = await kit.client().users.list();
    const userId = users[0].id;
    const grants = async () => (await kit.control.state()).accessGrants;
    const { id, outs } = await kit.providers.access.create(
      { machineId: kit.machineId, userId },
      kit.settings,
    );
    expect(id).toBe(`${kit.machineId}/${userId}`);
    expect(await grants()).toContainEqual(expect.objectContaining({ machineId: kit.machineId, userId }));
    await kit.providers.access.delete(id, outs, kit.settings);
    expect(await grants()).not.toContainEqual(expect.objectContaining({ machineId: kit.machineId, userId }));
    // Revoking twice (already revoked) is still success.
    await expect(kit.providers.access.delete(id, outs, kit.settings)).resolves.toBeUndefined();
  });

  it("read with only the id (MachineAccess.get) → machineId and userId taken from it", async () => {
    const users = await kit.client().users.list();
    const id = `${kit.machineId}/${users[0].id}`;
    expect(await kit.providers.access.read(id, {}, kit.settings)).toMatchObject({
      id,
      props: { machineId: kit.machineId, userId: users[0].id },
    });
  });

  it("read: machine destroyed → the grant is gone", async () => {
    const client = kit.client();
    const users = await client.users.list();
    const { id, outs } = await kit.providers.access.create(
      { machineId: kit.machineId, userId: users[0].id },
      kit.settings,
    );
    expect((await kit.providers.access.read(id, outs, kit.settings)).id).toBe(id);
    await client.machines.destroy(kit.machineId);
    kit.advance(10 * 60_000);
    expect(await kit.providers.access.read(id, outs, kit.settings)).toEqual({});
  });
});
