/**
 * The Machine's outputs come from the wire schema: every field the API reports is an output
 * (renamed where the resource uses the name for something else), and refresh's inputs are the
 * reported fields that are also inputs.
 */
import { MachineSchema, type Machine as ApiMachine } from "../../../src/client/schemas";
import {
  actualInputs,
  MACHINE_DIFF_TABLE,
  MACHINE_OUTPUT_KEYS,
  machineOutputs,
} from "../../../src/provider/machineModel";

const machine: ApiMachine = {
  id: "ps1",
  name: "trainer",
  os: "Ubuntu 22.04",
  ram: "8589938688",
  cpus: 4,
  gpu: null,
  storageTotal: "53687091200",
  storageUsed: "12884901888",
  machineType: "C4",
  usageRate: "C4 hourly",
  shutdownTimeoutInHours: 0,
  shutdownTimeoutForces: false,
  performAutoSnapshot: false,
  autoSnapshotFrequency: null,
  autoSnapshotSaveCount: null,
  dynamicPublicIp: false,
  agentType: "LinuxHeadless",
  dtCreated: "2026-01-15T09:00:00.000Z",
  state: "serviceready",
  updatesPending: false,
  networkId: "n1",
  privateIpAddress: "10.0.0.10",
  publicIpAddress: null,
  region: "East Coast (NY2)",
  scriptId: null,
  dtLastRun: null,
  restorePointSnapshotId: null,
  restorePointFrequency: null,
  userId: "u1",
  teamId: null,
  internalId: 7,
};

describe("Machine outputs from the wire schema", () => {
  it("machineOutputs: every schema field but internalId → an output; id as machineId, state as currentState", () => {
    const outs = machineOutputs({ state: "ready", size: 50 }, machine);
    const expected = Object.keys(MachineSchema.shape)
      .filter((field) => field !== "internalId")
      .map((field) => ({ id: "machineId", state: "currentState" })[field] ?? field);
    expect(Object.keys(outs)).toEqual(expect.arrayContaining([...expected, "state", "size"]));
    expect(outs).toMatchObject({
      machineId: "ps1",
      currentState: "serviceready",
      state: "ready",
      events: [],
    });
    expect(outs).not.toHaveProperty("internalId");
  });

  it("MACHINE_OUTPUT_KEYS: the reported outputs and passwordDigest, never internalId", () => {
    expect(MACHINE_OUTPUT_KEYS).toEqual(
      expect.arrayContaining(["machineId", "currentState", "events", "os", "passwordDigest"]),
    );
    expect(MACHINE_OUTPUT_KEYS).not.toContain("internalId");
    expect(MACHINE_OUTPUT_KEYS).not.toContain("id");
  });

  it("actualInputs: the reported fields that are inputs, a user the API leaves out → absent", () => {
    const { userId: _userId, ...withoutUser } = machine;
    const inputs = actualInputs(withoutUser);
    expect(Object.keys(inputs).every((key) => key in MACHINE_DIFF_TABLE)).toBe(true);
    expect(inputs).toMatchObject({ name: "trainer", region: "East Coast (NY2)", machineType: "C4" });
    expect(inputs).not.toHaveProperty("state");
    expect(inputs).not.toHaveProperty("userId");
  });
});
