/**
 * The MachineAccess resource as data: its inputs (typed from the setMachineAccess request) are
 * its outputs, and the key list its class registers (machineAccess.ts).
 */
import type { SetMachineAccessRequest } from "../../contract/requestSchemas";
import type { Assert, Props, Same } from "../shared/resourceImplementation";
import { machineAccessResource } from "./machineAccessResource";

/** A MachineAccess's inputs: the machine, and the user of the request who may use it. */
interface AccessFields {
  machineId: NonNullable<SetMachineAccessRequest["machineId"]>;
  userId: SetMachineAccessRequest["userId"];
}

/** The inputs a MachineAccess's provider receives (checked by its `check`). */
export type AccessInputs = Props<AccessFields>;

/** The outputs a MachineAccess's provider stores: the inputs, nothing more. */
export type AccessOutputs = Props<AccessFields>;

type InputKey = keyof typeof machineAccessResource.inputs.shape;

/** Every input (and output) key of a MachineAccess, as its declaration has them. */
export const ACCESS_INPUT_KEYS = machineAccessResource.inputNames as readonly InputKey[];

/* Compile-time check that the declared inputs are the typed fields. */
type _InputKeys = Assert<Same<InputKey, keyof AccessFields>>;
