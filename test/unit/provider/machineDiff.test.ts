import { providerContext } from "../../../src/provider/account/context";
import { machineProvider as machineImplementation } from "../../../src/provider/machine/machineProvider";
import { MACHINE_DIFF_TABLE, digestPassword } from "../../../src/provider/machine/machineModel";
import { DEFAULT_WAIT_SECONDS } from "../../../src/provider/machine/converge";
import { UNKNOWN } from "../../../src/provider/shared/unknown";
import { MACHINE_BASICS } from "../../kit/machines";
import { OFFLINE_SETTINGS, viaSettings } from "../../kit/providers";

/** Warnings the diff gives (a scriptId change warns that the machine is replaced). */
const warnings: string[] = [];
const machineProvider = viaSettings(
  machineImplementation,
  providerContext({ warn: (message) => warnings.push(message) }),
  OFFLINE_SETTINGS,
);

/** Outputs of a machine as create leaves them (the olds of a diff). */
function olds(): Record<string, unknown> {
  return {
    name: "trainer-abc1234",
    ...MACHINE_BASICS,
    templateId: "tubuntu1",
    state: "ready",
    teamId: "te1",
    networkId: "n1",
    scriptId: "sc1",
    userId: "u1",
    email: "a@example.com",
    passwordDigest: digestPassword("old-password"),
    firstName: "A",
    lastName: "B",
    assignPublicIp: true,
    dynamicPublicIp: false,
    takeInitialSnapshot: true,
    markSnapshotAsRestorePoint: true,
    restorePointFrequency: "shutdown",
    shutdownTimeoutInHours: 2,
    shutdownTimeoutForces: false,
    performAutoSnapshot: false,
    autoSnapshotFrequency: "day",
    autoSnapshotSaveCount: 3,
    adoptMachineId: "ps0", // not the diffed id "ps1": a replacement of an adopted machine is refused (adoption.test)
    notificationEmail: "n@example.com",
    waitTimeoutSeconds: 600,
    releasePublicIpOnDestroy: false,
  };
}

/** A new value of the same type for each input, different from olds(). */
const CHANGED: Record<string, unknown> = {
  name: "renamed",
  region: "Europe (AMS1)",
  machineType: "C5",
  size: 100,
  billingType: "monthly",
  templateId: "tother",
  state: "off",
  teamId: "te2",
  networkId: "n2",
  scriptId: "sc2",
  userId: "u2",
  email: "b@example.com",
  password: "new-password",
  firstName: "C",
  lastName: "D",
  assignPublicIp: false,
  dynamicPublicIp: true,
  takeInitialSnapshot: false,
  markSnapshotAsRestorePoint: false,
  restorePointFrequency: null,
  shutdownTimeoutInHours: 4,
  shutdownTimeoutForces: true,
  performAutoSnapshot: true,
  autoSnapshotFrequency: "week",
  autoSnapshotSaveCount: 5,
  adoptMachineId: "ps2",
  notificationEmail: "m@example.com",
  waitTimeoutSeconds: 900,
  releasePublicIpOnDestroy: true,
};

function news(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { passwordDigest: _digest, ...inputs } = olds();
  return { ...inputs, password: "old-password", ...overrides };
}

describe("Machine diff table", () => {
  it("diff: nothing changed → no changes", async () => {
    expect(await machineProvider.diff("ps1", olds(), news())).toEqual({
      changes: false,
      replaces: [],
      changed: [],
      deleteBeforeReplace: false,
    });
  });

  it("covers every input the table names with a changed value", () => {
    expect(Object.keys(CHANGED).sort()).toEqual(Object.keys(MACHINE_DIFF_TABLE).sort());
  });

  for (const [key, action] of Object.entries(MACHINE_DIFF_TABLE)) {
    const expected =
      action === "replace"
        ? { changes: true, replaces: [key] }
        : action === "none"
          ? { changes: true, replaces: [] }
          : { changes: true, replaces: [] };
    it(`diff: ${key} changed → ${action === "replace" ? "replace" : "in place"}`, async () => {
      const result = await machineProvider.diff("ps1", olds(), news({ [key]: CHANGED[key] }));
      expect(result).toMatchObject(expected);
    });
  }

  it("diff: an input left out → no change (the API keeps its value)", async () => {
    const { networkId: _n, scriptId: _s, ...rest } = news();
    expect((await machineProvider.diff("ps1", olds(), rest)).changes).toBe(false);
  });

  it("diff: an unknown value at preview → a change (replace for create-only inputs)", async () => {
    const result = await machineProvider.diff("ps1", olds(), news({ templateId: UNKNOWN, name: UNKNOWN }));
    expect(result.changes).toBe(true);
    expect(result.replaces).toEqual(["templateId"]);
  });

  it("diff: a state without the inputs the API never reports, or without the provider's settings (a machine taken in by import) → no change when they are declared as their defaults", async () => {
    const imported = olds();
    for (const key of ["templateId", "assignPublicIp", "takeInitialSnapshot", "email", "firstName"])
      delete imported[key];
    delete imported.waitTimeoutSeconds;
    delete imported.releasePublicIpOnDestroy;
    const declared = news({ waitTimeoutSeconds: DEFAULT_WAIT_SECONDS, releasePublicIpOnDestroy: false });
    expect((await machineProvider.diff("ps1", imported, declared)).changes).toBe(false);
    expect(await machineProvider.diff("ps1", imported, news({ waitTimeoutSeconds: 60 }))).toMatchObject({
      changes: true,
      changed: ["waitTimeoutSeconds"],
    });
  });

  it("diff: a declared input the state holds nothing of (not one the API never reports) → a change", async () => {
    const { networkId: _n, ...state } = olds();
    expect(await machineProvider.diff("ps1", state, news())).toMatchObject({
      changes: true,
      changed: ["networkId"],
    });
  });

  it("diff: a new password → a change; the declared power state compared with the observed one", async () => {
    expect(await machineProvider.diff("ps1", olds(), news({ password: "new-password" }))).toMatchObject({
      changes: true,
      changed: ["password"],
    });
    expect(
      await machineProvider.diff("ps1", { ...olds(), state: "off" }, news({ state: "off" })),
    ).toMatchObject({
      changes: false,
    });
  });

  it("diff: same password → no change; the password is compared with its digest only", async () => {
    const old = olds();
    expect(JSON.stringify(old)).not.toContain("old-password");
    expect((await machineProvider.diff("ps1", old, news({ password: "old-password" }))).changes).toBe(false);
  });
});
