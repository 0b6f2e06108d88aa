/**
 * The MachineRestart, declared once (shared/resourceDeclaration.ts says who reads what): its
 * class registers this shape, the registry loads its implementation from here, the schema reads
 * its diff table and models here.
 */
import type * as RestartProviderModule from "./machineRestartProvider";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { RESTART_INPUT_KEYS, RESTART_OUTPUT_KEYS } from "./machineRestartModel";

/** A machine's restart on changed triggers: its inputs, its outputs and the account. */
export const machineRestartResource = {
  kind: "MachineRestart",
  load: () => (require("./machineRestartProvider") as typeof RestartProviderModule).machineRestartProvider,
  keys: ["account", ...RESTART_INPUT_KEYS, ...RESTART_OUTPUT_KEYS],
  changes: { machineId: "replace", triggers: "update", state: "update", waitTimeoutSeconds: "none" },
  models: [{ file: "src/provider/restart/machineRestartModel.ts", type: "RestartOutputs" }],
  page: "docs/resources/machineRestart.md",
} as const satisfies ResourceDeclaration;
