/**
 * vmapi-recover-pending's rules (src/recovery/pendingCreates.ts): a pending create found by name
 * becomes a resource of the stack, one not found is dropped, anything it cannot decide stays.
 */
import { creatingName } from "../../../src/contract/unfinishedCreates";
import {
  resolvePendingCreates,
  type ExportedStack,
  type ResourceFinder,
} from "../../../src/recovery/pendingCreates";

const TYPE = "pulumi-nodejs:dynamic/vmapi:";
const urn = (kind: string, name: string) => `urn:pulumi:dev::p::${TYPE}${kind}::${name}`;
const provider = "exports.handler = ...";

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
): ResourceFinder => ({
  machinesNamed: async (name) => machines[name] ?? [],
  scriptsNamed: async (name) => scripts[name] ?? [],
  removeScriptsNamed: async (name) => void removed.push(name),
});

test("resolvePendingCreates: machine found by its name → adopted with its id and the create's inputs as outputs", async () => {
  const input = stack([pending("Machine", "m", { name: "m-abc1234", size: 50 })]);
  const { stack: out, resolutions } = await resolvePendingCreates(input, finder({ "m-abc1234": ["ps1"] }));
  expect(resolutions).toEqual([
    expect.objectContaining({ outcome: "adopted", id: "ps1", urn: urn("Machine", "m") }),
  ]);
  expect(out.deployment.pending_operations).toEqual([]);
  expect(out.deployment.resources).toEqual([
    expect.objectContaining({
      id: "ps1",
      outputs: { __provider: provider, name: "m-abc1234", size: 50, machineId: "ps1" },
    }),
  ]);
  expect(out.deployment.manifest).toEqual({ time: "t" });
  // The input export is left as it was.
  expect(input.deployment.pending_operations).toHaveLength(1);
});

test("resolvePendingCreates: a machine under the create's creating name (it had not finished) → that one adopted, not a namesake", async () => {
  const inputs = { name: "m-abc1234", __namingSeed: "seed-1" };
  const unfinished = creatingName("m-abc1234", "seed-1");
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", inputs)]),
    finder({ [unfinished]: ["ps2"], "m-abc1234": ["ps1"] }),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "ps2" })]);
});

test("resolvePendingCreates: a script → found by its name, and its create's marker removed", async () => {
  const removed: string[] = [];
  const inputs = { name: "s-1", __namingSeed: "seed-2" };
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Script", "s", inputs)]),
    finder({}, { "s-1": ["sc1"] }, removed),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "sc1" })]);
  expect(removed).toEqual([creatingName("s-1", "seed-2")]);
});

test("resolvePendingCreates: no machine of that name → dropped, nothing added", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "x" })]),
    finder({}),
  );
  expect(resolutions).toEqual([
    expect.objectContaining({ outcome: "dropped", reason: expect.stringContaining("never created") }),
  ]);
  expect(out.deployment.resources).toEqual([]);
  expect(out.deployment.pending_operations).toEqual([]);
});

test("resolvePendingCreates: two machines of that name → left pending, both ids named", async () => {
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: "dup" })]),
    finder({ dup: ["ps1", "ps2"] }),
  );
  expect(resolutions[0]).toMatchObject({ outcome: "left", reason: expect.stringContaining("ps1, ps2") });
  expect(out.deployment.pending_operations).toHaveLength(1);
});

test("resolvePendingCreates: adoptMachineId → adopted without a lookup; script by name; grant dropped", async () => {
  const ops = [
    pending("Machine", "a", { adoptMachineId: "ps9" }),
    pending("Script", "s", { name: "s-1" }),
    pending("MachineAccess", "g", { machineId: "ps9", userId: "u1" }),
  ];
  const { stack: out, resolutions } = await resolvePendingCreates(stack(ops), finder({}, { "s-1": ["sc1"] }));
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
    finder({ m: ["ps1"] }),
  );
  expect(resolutions).toEqual([]);
  expect(out.deployment.pending_operations).toEqual([foreign, deleting]);
});

test("resolvePendingCreates: a name kept secret (ciphertext) → left for the user", async () => {
  const { resolutions } = await resolvePendingCreates(
    stack([pending("Machine", "m", { name: { ciphertext: "v1:..." } })]),
    finder({}),
  );
  expect(resolutions[0]).toMatchObject({ outcome: "left", reason: expect.stringContaining("secret") });
});

test("resolvePendingCreates: the plugin's resources (vmapi:index:Machine) → resolved the same way", async () => {
  const op = {
    type: "creating",
    resource: {
      urn: "urn:pulumi:dev::p::vmapi:index:Machine::m",
      type: "vmapi:index:Machine",
      inputs: { name: "m-abc1234", __namingSeed: "seed-3" },
    },
  };
  const { stack: out, resolutions } = await resolvePendingCreates(
    stack([op] as never),
    finder({ [creatingName("m-abc1234", "seed-3")]: ["ps7"] }),
  );
  expect(resolutions).toEqual([expect.objectContaining({ outcome: "adopted", id: "ps7" })]);
  expect(out.deployment.resources).toEqual([
    expect.objectContaining({ id: "ps7", outputs: expect.objectContaining({ machineId: "ps7" }) }),
  ]);
});
