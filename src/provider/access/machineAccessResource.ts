/**
 * The MachineAccess, declared once (shared/resourceDeclaration.ts says who reads what): its class
 * registers this shape, the registry loads its implementation from here, the schema reads its
 * diff table and models here.
 */
import type * as AccessProviderModule from "./machineAccessProvider";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { ACCESS_INPUT_KEYS } from "./machineAccessModel";

/** One user's access to one machine: its inputs, which are its outputs, and the account. */
export const machineAccessResource = {
  kind: "MachineAccess",
  load: () => (require("./machineAccessProvider") as typeof AccessProviderModule).machineAccessProvider,
  keys: ["account", ...ACCESS_INPUT_KEYS],
  // Its provider's `diff` in rows; test/unit/schema/diffTables.test.ts holds the two together.
  changes: { machineId: "replace", userId: "replace" },
  models: [{ file: "src/provider/access/machineAccessModel.ts", type: "AccessOutputs" }],
  page: "docs/resources/machineAccess.md",
} as const satisfies ResourceDeclaration;
