/**
 * ResourceDelegation and MachineAccess have no diff table in their models; their declarations
 * state theirs. These tests hold each row to what the provider's `diff` does with a change to
 * that input alone, so the schema's `replaceOnChanges` cannot drift from the provider.
 */
import { machineAccessProvider } from "../../../src/provider/access/machineAccessProvider";
import { machineAccessResource } from "../../../src/provider/access/machineAccessResource";
import { resourceDelegationProvider } from "../../../src/provider/delegation/resourceDelegationProvider";
import { resourceDelegationResource } from "../../../src/provider/delegation/resourceDelegationResource";
import { providerContext } from "../../../src/provider/account/context";
import { OFFLINE_SETTINGS, viaSettings } from "../../kit/providers";

const NOW = Date.parse("2026-11-26T12:00:00.000Z");
const context = providerContext({ timing: { now: () => NOW } });

/** A different value of the same kind. */
function changed(value: unknown): unknown {
  if (Array.isArray(value)) return [...value, "ps-other"];
  if (typeof value === "number") return value + 60;
  return `${String(value)}-other`;
}

/**
 * Each row of `rows` held to what `diff` does with a change to that input alone of `news`: it
 * replaces exactly when the row says "replace". The rows name exactly the inputs of `news`.
 */
async function expectRowsHeld(
  rows: Record<string, string>,
  news: Record<string, unknown>,
  diff: (news: Record<string, unknown>) => Promise<{ replaces?: string[] }>,
): Promise<void> {
  expect(Object.keys(rows).sort()).toEqual(Object.keys(news).sort());
  for (const [key, action] of Object.entries(rows)) {
    const { replaces } = await diff({ ...news, [key]: changed(news[key]) });
    expect([key, replaces?.includes(key) ?? false]).toEqual([key, action === "replace"]);
  }
}

describe("diff tables stated in the declarations", () => {
  test("ResourceDelegation: machineIds replaces, renewBeforeSeconds is stored without a replacement", async () => {
    const provider = viaSettings(resourceDelegationProvider, context, OFFLINE_SETTINGS);
    // Created an hour ago: it expires in 3 h, beyond any renewBeforeSeconds tried here.
    const olds = {
      machineIds: ["ps1"],
      renewBeforeSeconds: 600,
      delegationId: 7,
      accessTokenId: "token",
      dtCreated: new Date(NOW - 3_600_000).toISOString(),
      expiresAt: new Date(NOW + 3 * 3_600_000).toISOString(),
      isEnabled: true,
    };
    const news = { machineIds: olds.machineIds, renewBeforeSeconds: olds.renewBeforeSeconds };
    await expectRowsHeld(resourceDelegationResource.changes, news, (edited) =>
      provider.diff("7", olds, edited),
    );
  });

  test("ResourceDelegation: renewBeforeSeconds defaults to 1800 (a delegation 29 min from expiry is renewed, 31 min not)", async () => {
    const provider = viaSettings(resourceDelegationProvider, context, OFFLINE_SETTINGS);
    const olds = (minutes: number) => ({
      machineIds: ["ps1"],
      expiresAt: new Date(NOW + minutes * 60_000).toISOString(),
    });
    const news = { machineIds: ["ps1"] };
    expect((await provider.diff("7", olds(29), news)).replaces).toContain("expiresAt");
    expect((await provider.diff("7", olds(31), news)).replaces).not.toContain("expiresAt");
  });

  test("MachineAccess: both inputs replace", async () => {
    const provider = viaSettings(machineAccessProvider, context, OFFLINE_SETTINGS);
    const olds = { machineId: "ps1", userId: "u1" };
    await expectRowsHeld(machineAccessResource.changes, olds, (edited) =>
      provider.diff("ps1/u1", olds, edited),
    );
  });
});
