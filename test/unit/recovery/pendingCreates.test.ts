/**
 * vmapi-recover-pending's rules (src/recovery/pendingCreates.ts, madeByCreate.ts): a pending
 * create is looked up in its own account, and only what its create provably made is taken (a
 * machine under its creating name, a script whose marker is there); a namesake is named, never
 * taken; anything it cannot decide stays pending.
 */
import { creatingName, urnIdentity } from "../../../src/contract/unfinishedCreates";
import { resolvePendingCreates, type ResourceFinder } from "../../../src/recovery/pendingCreates";
import type { ExportedResource, ExportedStack } from "../../../src/recovery/stackExport";

const TYPE = "pulumi-nodejs:dynamic/vmapi:";
const urn = (kind: string, name: string) => `urn:pulumi:dev::p::${TYPE}${kind}::${name}`;
const provider = "exports.handler = ...";
const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

function pending(kind: string, name: string, inputs: Record<string, unknown>) {
  return {
    type: "creating",
    resource: { urn: urn(kind, name), type: `${TYPE}${kind}`, inputs: { __provider: provider, ...inputs } },
  };
}

function stack(
  ops: ReturnType<typeof pending>[],
  resources: ExportedStack["deployment"]["resources"] = [],
): ExportedStack {
  return { version: 3, deployment: { manifest: { time: "t" }, resources, pending_operations: ops } };
}

/** A finder over `machines` and `scripts` by name; the script names it removed go to `removed`. */
const finder = (
  machines: Record<string, string[]>,
  scripts: Record<string, string[]> = {},
  removed: string[] = [],
  account = "the default account",
): ResourceFinder => ({
  account,
  machinesNamed: async (name) => machines[name] ?? [],
  scriptsNamed: async (name) => scripts[name] ?? [],
  removeScriptsNamed: async (name) => void removed.push(name),
});
/** Every pending create looked up with `f`. */
const everyone = (f: ResourceFinder) => () => f;

const SEED = "seed-1";
const creating = (name: string, seed = SEED) => creatingName(name, seed);

test("resolvePendingCreates: a machine under the create's creating name → adopted with its id and the create's inputs as outputs", async () => {
  const input = stack([pending("Machine", "m", { name: "m-abc1234", size: 50, __namingSeed: SEED })]);
  const { stack: out, resolutions } = await resolvePendingCreates(
    input,
    everyone(finder({ [creating("m-abc1234")]: ["ps1"] })),
  );
  expect(resolutions).toEqual([
    {
      outcome: "adopted",
      id: "ps1",
      urn: urn("Machine", "m"),
      reason: "its create made machine ps1 in the default account (still under its creating name)",
    },
  ]);
  expect(out.deployment.pending_operations).toEqual([]);
  expect(out.deployment.resources).toEqual([
    expect.objectContaining({
      id: "ps1",
      outputs: { __provider: provider, name: "m-abc1234", size: 50, __namingSeed: SEED, machineId: "ps1" },
    }),
  ]);
  expect(out.deployment.manifest).toEqual({ time: "t" });
  // The input export is left as it was.
  expect(input.deployment.pending_operations).toHaveLength(1);
});

test("resolvePendingCreates: only a namesake of the machine's name (no creating name) → dropped, the namesake named and not taken", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "shared-name", __namingSeed: SEED })]),
    everyone(finder({ "shared-name": ["ps1"] })),
  );
  expect(resolutions).toEqual([
    expect.objectContaining({
      outcome: "dropped",
      reason:
        "no machine under its creating name in the default account: its create made none; " +
        "machine ps1 has the name \"shared-name\", but nothing proves it is this resource's (names are anyone's): not taken",
    }),
  ]);
  expect(out.deployment.resources).toEqual([]);
});

test("resolvePendingCreates: a machine under its creating name beside a namesake → the creating-named one", async () => {
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "m-abc1234", __namingSeed: SEED })]),
    everyone(finder({ [creating("m-abc1234")]: ["ps2"], "m-abc1234": ["ps1"] })),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "ps2" })]);
});

test("resolvePendingCreates: a script whose create's marker is there → the script of its name adopted, the marker removed", async () => {
  const removed: string[] = [];
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Script", "s", { name: "s-1", __namingSeed: SEED })]),
    everyone(finder({}, { "s-1": ["sc1"], [creating("s-1")]: ["sc0"] }, removed)),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "sc1" })]);
  expect(removed).toEqual([creating("s-1")]);
});

test("resolvePendingCreates: a script of the name without its create's marker → dropped, not taken, nothing removed", async () => {
  const removed: string[] = [];
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Script", "s", { name: "kept", __namingSeed: SEED })]),
    everyone(finder({}, { kept: ["sc1"] }, removed)),
  );
  expect(resolutions).toEqual([
    expect.objectContaining({
      outcome: "dropped",
      reason: expect.stringMatching(/^no marker of its create .*script sc1 has the name "kept".*not taken$/),
    }),
  ]);
  expect(out.deployment.resources).toEqual([]);
  expect(removed).toEqual([]);
});

test("resolvePendingCreates: a script's marker alone → dropped (its create made nothing else), the marker removed", async () => {
  const removed: string[] = [];
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Script", "s", { name: "s-1", __namingSeed: SEED })]),
    everyone(finder({}, { [creating("s-1")]: ["sc0"] }, removed)),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "dropped" })]);
  expect(removed).toEqual([creating("s-1")]);
});

test("resolvePendingCreates: nothing under the creating name, no namesake → dropped, nothing added", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "x" })]),
    everyone(finder({})),
  );
  expect(resolutions).toEqual([
    expect.objectContaining({
      outcome: "dropped",
      reason: "no machine under its creating name in the default account: its create made none",
    }),
  ]);
  expect(out.deployment.resources).toEqual([]);
  expect(out.deployment.pending_operations).toEqual([]);
});

test("resolvePendingCreates: two machines under its creating name → left pending, both ids named", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "dup", __namingSeed: SEED })]),
    everyone(finder({ [creating("dup")]: ["ps1", "ps2"] })),
  );
  expect(resolutions[0]).toMatchObject({ outcome: "left", reason: expect.stringContaining("ps1, ps2") });
  expect(out.deployment.pending_operations).toHaveLength(1);
});

test("resolvePendingCreates: each pending create looked up in its own account → each found where it was made", async () => {
  const ops = [
    pending("Machine", "mine", { name: "a", __namingSeed: "s-a" }),
    pending("Machine", "theirs", { name: "b", __namingSeed: "s-b", account: "team" }),
  ];
  const mine = finder({ [creating("a", "s-a")]: ["ps1"] });
  const team = finder({ [creating("b", "s-b")]: ["ps2"] }, {}, [], 'account "team"');
  const { resolutions } = await resolvePendingCreates(stack(ops), (resource: ExportedResource) =>
    resource.inputs?.account === "team" ? team : mine,
  );
  expect(resolutions.map((r) => [r.outcome, r.id, r.reason])).toEqual([
    ["adopted", "ps1", expect.stringContaining("in the default account")],
    ["adopted", "ps2", expect.stringContaining('in account "team"')],
  ]);
});

test("resolvePendingCreates: an account that cannot be read → left pending, saying why", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "x" })]),
    () => ({ unreadable: 'the key of account "team" is encrypted in this export' }),
  );
  expect(resolutions[0]).toMatchObject({
    outcome: "left",
    reason: 'the key of account "team" is encrypted in this export: resolve it by hand',
  });
  expect(out.deployment.pending_operations).toHaveLength(1);
});

test("resolvePendingCreates: adoptMachineId → adopted without a lookup; a script by its marker; a grant dropped", async () => {
  const ops = [
    pending("Machine", "a", { adoptMachineId: "ps9" }),
    pending("Script", "s", { name: "s-1", __namingSeed: SEED }),
    pending("MachineAccess", "g", { machineId: "ps9", userId: "u1" }),
  ];
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack(ops),
    everyone(finder({}, { "s-1": ["sc1"], [creating("s-1")]: ["sc0"] })),
  );
  expect(resolutions.map((r) => [r.outcome, r.id])).toEqual([
    ["adopted", "ps9"],
    ["adopted", "sc1"],
    ["dropped", undefined],
  ]);
  expect(out.deployment.resources!.map((r) => [r.id, r.outputs?.scriptId ?? r.outputs?.machineId])).toEqual([
    ["ps9", "ps9"],
    ["sc1", "sc1"],
  ]);
});

test("resolvePendingCreates: other providers' operations and non-creates → left untouched", async () => {
  const foreign = {
    type: "creating",
    resource: { urn: "urn:pulumi:dev::p::aws:s3:Bucket::b", type: "aws:s3:Bucket" },
  };
  const deleting = { ...pending("Machine", "m", { name: "m" }), type: "deleting" };
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([foreign, deleting] as never),
    everyone(finder({ m: ["ps1"] })),
  );
  expect(resolutions).toEqual([]);
  expect(out.deployment.pending_operations).toEqual([foreign, deleting]);
});

test("resolvePendingCreates: a secret name, encrypted in the only export → left, saying how to show it", async () => {
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: { ...SIG, ciphertext: "v1:..." } })]),
    everyone(finder({})),
  );
  expect(resolutions[0]).toMatchObject({
    outcome: "left",
    reason: expect.stringContaining("pulumi stack export --show-secrets"),
  });
});

test("resolvePendingCreates: a secret name shown in the second export → looked up by it, never reported; the repaired export keeps it encrypted", async () => {
  const encrypted = { ...SIG, ciphertext: "v1:..." };
  const toRepair = stack([pending("Machine", "m", { name: encrypted, __namingSeed: SEED })]);
  const shown = stack([
    pending("Machine", "m", { name: { ...SIG, plaintext: '"private-box"' }, __namingSeed: SEED }),
  ]);
  const { resolutions } = await resolvePendingCreates(
    toRepair,
    everyone(finder({ "private-box": ["ps0"] })),
    shown,
  );
  expect(resolutions[0]).toMatchObject({
    outcome: "dropped",
    reason: expect.stringContaining("its (secret) name"),
  });
  expect(JSON.stringify(resolutions)).not.toContain("private-box");

  const found = await resolvePendingCreates(
    toRepair,
    everyone(finder({ [creating("private-box")]: ["ps1"] })),
    shown,
  );
  expect(found.resolutions[0]).toMatchObject({ outcome: "adopted", id: "ps1" });
  expect(found.stack.deployment.resources![0].outputs?.name).toEqual(encrypted);
  expect(JSON.stringify(found.stack)).not.toContain("private-box");
});

test("resolvePendingCreates: the plugin's resources (vmapi:index:Machine) → looked up by the creating name of their URN, whatever the inputs hold", async () => {
  const urn = "urn:pulumi:dev::p::vmapi:index:Machine::m";
  const op = {
    type: "creating",
    resource: { urn, type: "vmapi:index:Machine", inputs: { name: "m-abc1234", __namingSeed: "stale" } },
  };
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([op] as never),
    everyone(finder({ [creatingName("m-abc1234", urnIdentity(urn))]: ["ps7"] })),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "ps7" })]);
  expect(out.deployment.resources).toEqual([
    expect.objectContaining({ id: "ps7", outputs: expect.objectContaining({ machineId: "ps7" }) }),
  ]);
});
