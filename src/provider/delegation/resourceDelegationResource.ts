/**
 * The ResourceDelegation, declared once (shared/resourceDeclaration.ts says who reads what): its
 * class registers this shape, the registry loads its implementation from here, the schema reads
 * its diff table and models here.
 */
import type * as DelegationProviderModule from "./resourceDelegationProvider";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { DELEGATION_INPUT_KEYS, DELEGATION_OUTPUT_KEYS } from "./resourceDelegationModel";

/** A time-limited delegation: its model's keys, the token a secret output. */
export const resourceDelegationResource = {
  kind: "ResourceDelegation",
  load: () =>
    (require("./resourceDelegationProvider") as typeof DelegationProviderModule).resourceDelegationProvider,
  keys: [...DELEGATION_INPUT_KEYS, ...DELEGATION_OUTPUT_KEYS],
  secretOutputs: ["accessTokenId"],
  // Its provider's `diff` in rows (it decides in code: an expiring token replaces too);
  // test/unit/schema/diffTables.test.ts holds the two together.
  changes: { machineIds: "replace", renewBeforeSeconds: "none" },
  models: [{ file: "src/provider/delegation/resourceDelegationModel.ts", type: "DelegationOutputs" }],
  page: "docs/resources/resourceDelegation.md",
} as const satisfies ResourceDeclaration;
