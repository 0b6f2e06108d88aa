/**
 * The Machine, declared once (shared/resourceDeclaration.ts says who reads what): its class
 * registers this shape, the registry loads its implementation from here, the schema reads its
 * diff table and models here.
 */
import type * as MachineProviderModule from "./machineProvider";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { MACHINE_DIFF_TABLE } from "./machineDiffTable";
import { MACHINE_OUTPUT_KEYS } from "./machineModel";

/**
 * A virtual machine: its model's outputs and inputs, auto-named; the new user's password is a
 * secret even when given as a plain string, and so is its digest.
 */
export const machineResource = {
  kind: "Machine",
  load: () => (require("./machineProvider") as typeof MachineProviderModule).machineProvider,
  keys: [...MACHINE_OUTPUT_KEYS, ...Object.keys(MACHINE_DIFF_TABLE)],
  autoNamed: true,
  secretInputs: ["password"],
  secretOutputs: ["password", "passwordDigest"],
  changes: MACHINE_DIFF_TABLE,
  // The class holds it in a child MachineRestart; in the plugin, declare a MachineRestart.
  dynamicOnly: ["restartTriggers"],
  createOnly: ["templateId"],
  // Its inputs, then the machine the API reports (the outputs that are not inputs: `cpus`).
  models: [
    { file: "src/provider/machine/machineModel.ts", type: "MachineInputs" },
    { file: "src/contract/schemas.ts", type: "Machine" },
  ],
  page: "docs/resources/machine.md",
} as const satisfies ResourceDeclaration;
