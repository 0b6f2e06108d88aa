/**
 * The Machine's outputs come from the wire schema: every field the API reports is an output
 * (renamed where the resource uses the name for something else), and refresh's inputs are the
 * reported fields that are also inputs.
 */
import { MachineSchema, type Machine as ApiMachine } from "../../../src/contract/schemas";
import {
  actualInputs,
  MACHINE_DIFF_TABLE,
  MACHINE_OUTPUT_KEYS,
  machineOutputs,
} from "../../../src/provider/machine/machineModel";
import { MACHINE } from "../../security/support/fixtures";

/** A machine as the API shows it, every optional part present but events (a list's machine). */
const machine: ApiMachine = MachineSchema.parse({ ...MACHINE, state: "serviceready", internalId: 7 });

describe("Machine outputs from the wire schema", () => {
  it("machineOutputs: every schema field but internalId → an output; id as machineId, state as currentState", () => {
    const outs = machineOutputs({ state: "ready", size: 50 }, machine);
    const expected = Object.keys(MachineSchema.shape)
      .filter((field) => field !== "internalId")
      .map((field) => ({ id: "machineId", state: "currentState" })[field] ?? field);
    expect(Object.keys(outs)).toEqual(expect.arrayContaining([...expected, "state", "size"]));
    expect(outs).toMatchObject({
      machineId: MACHINE.id,
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
    expect(inputs).toMatchObject({
      name: MACHINE.name,
      region: MACHINE.region,
      machineType: MACHINE.machineType,
    });
    expect(inputs).not.toHaveProperty("state");
    expect(inputs).not.toHaveProperty("userId");
  });
});
