/**
 * The ResourceDelegation provider against the emulator: the token and its expiry, a replace near
 * expiry, and what it cannot read back.
 */
import { providerContext } from "../../../src/provider/account/context";
import { providersOn, useProviderKitWithMachine } from "./providerTestKit";

const kit = useProviderKitWithMachine();

/** The delegation provider on the kit's context, its clock stopped at `now`. */
const delegationAt = (now: number) =>
  providersOn(
    providerContext({ ...kit.context, timing: { ...kit.context.timing, now: () => now } }),
    kit.settings,
  ).delegation;

describe("ResourceDelegation provider", () => {
  it("create: outputs token and expiry 4 h after dtCreated; diff replaces near expiry", async () => {
    const { id, outs } = await kit.providers.delegation.create({ machineIds: [kit.machineId] }, kit.settings);
    expect(id).toMatch(/^\d+$/);
    expect(Date.parse(outs.expiresAt) - Date.parse(outs.dtCreated)).toBe(4 * 3600 * 1000);
    expect(outs.accessTokenId).toEqual(expect.any(String));
    const created = Date.parse(outs.dtCreated);
    expect(
      await delegationAt(created + 60_000).diff(id, outs, { machineIds: [kit.machineId] }),
    ).toMatchObject({
      changes: false,
    });
    // 10 min left, margin 30 min
    expect(
      await delegationAt(created + 4 * 3600 * 1000 - 10 * 60_000).diff(id, outs, {
        machineIds: [kit.machineId],
      }),
    ).toMatchObject({
      changes: true,
      replaces: ["expiresAt"],
    });
  });

  it("read with only the id (ResourceDelegation.get) → an error saying the API cannot read one back", async () => {
    await expect(kit.providers.delegation.read("17", {}, kit.settings)).rejects.toThrow(
      /resource delegation 17: the API cannot read a delegation back.*ResourceDelegation\.get/,
    );
  });

  it("check: empty machineIds → failure naming machineIds", async () => {
    const { failures } = await kit.providers.delegation.check({}, { machineIds: [] }, kit.settings);
    expect(failures!.map((f) => f.property)).toEqual(["machineIds"]);
  });

  it("check: a fractional or too long renewBeforeSeconds (the schema says integer) → failure naming it", async () => {
    for (const renewBeforeSeconds of [90.5, 14400]) {
      const { failures } = await kit.providers.delegation.check(
        {},
        { machineIds: ["ps1"], renewBeforeSeconds },
        kit.settings,
      );
      expect(failures).toEqual([
        {
          property: "renewBeforeSeconds",
          reason: `renewBeforeSeconds must be a whole number of seconds between 0 and 14399 (the lifetime is 4 h; got ${renewBeforeSeconds})`,
        },
      ]);
    }
  });
});
