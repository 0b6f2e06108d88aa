/**
 * The ResourceDelegation, declared once (shared/resourceDeclaration.ts says who reads what): its
 * fields, from which its class, its diff table and its part of the schema are made; the registry
 * finds its implementation beside it.
 */
import { z } from "zod";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { fieldsOf, input, output } from "../shared/resourceFields";

/**
 * Limited access to listed machines through a token that expires 4 hours after creation; the
 * token is a secret output. Its `diff` decides in code beside its rows (an expiring token replaces
 * too); test/unit/schema/diffTables.test.ts holds the two together.
 */
export const resourceDelegationResource = {
  ...fieldsOf({
    kind: "ResourceDelegation",
    description: "A time-limited delegation; `accessTokenId` is a secret.",
    argsDescription: "Inputs of a {@link ResourceDelegation}.",
    getDescription:
      "Not possible for a delegation: the API cannot read one back, so this fails at `up` and\n" +
      "`preview` with a message that says so. It exists so every resource has the same surface.",
    inputs: z.object({
      machineIds: input(z.array(z.string()), {
        change: "replace",
        description:
          "Machines the token may show, start, stop and restart. A change replaces the delegation.",
      }),
      renewBeforeSeconds: input(z.number().optional(), {
        change: "none",
        default: 1800,
        description:
          "Replace the delegation at the next `pulumi up` when it expires within this many seconds\n" +
          "(default 1800). A delegation already expired is always replaced. A provider setting: updates\n" +
          "in place, no API call.",
      }),
    }),
    outputs: z.object({
      machineIds: output(z.array(z.string()), {
        description: "The machines the token may show, start, stop and restart.",
      }),
      delegationId: output(z.number(), {
        description: "The delegation's id in the API (the resource's id too).",
      }),
      accessTokenId: output(z.string(), {
        secret: true,
        description: "The token to present as X-Api-Key (secret).",
      }),
      dtCreated: output(z.string(), { description: "When it was created (ISO 8601, UTC)." }),
      expiresAt: output(z.string(), { description: "dtCreated + 4 h." }),
      isEnabled: output(z.boolean(), { description: "Whether the token is accepted." }),
    }),
  }),
  models: [{ file: "src/provider/delegation/resourceDelegationModel.ts", type: "DelegationOutputs" }],
  page: "docs/resources/resourceDelegation.md",
} as const satisfies ResourceDeclaration;
