/**
 * The MachineAccess resource as data: its inputs (typed from the setMachineAccess request) are
 * its outputs, and the key list its class registers (machineAccess.ts).
 */
import type { SetMachineAccessRequest } from "../../contract/requestSchemas";
import type { Assert, Props, Same } from "../shared/resourceImplementation";

/** A MachineAccess's inputs: the machine, and the user of the request who may use it. */
interface AccessFields {
  machineId: NonNullable<SetMachineAccessRequest["machineId"]>;
  userId: SetMachineAccessRequest["userId"];
}

/** The inputs a MachineAccess's provider receives (checked by its `check`). */
export type AccessInputs = Props<AccessFields>;

/** The outputs a MachineAccess's provider stores: the inputs, nothing more. */
export type AccessOutputs = Props<AccessFields>;

/** Every input (and output) key of a MachineAccess. */
export const ACCESS_INPUT_KEYS = ["machineId", "userId"] as const;

/* Compile-time check that the list above is the typed fields. */
type _InputKeys = Assert<Same<(typeof ACCESS_INPUT_KEYS)[number], keyof AccessFields>>;
