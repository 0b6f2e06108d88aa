/**
 * The MachineAccess, declared once (shared/resourceDeclaration.ts says who reads what): its
 * fields, from which its class, its diff table and its part of the schema are made; the registry
 * finds its implementation beside it.
 */
import { z } from "zod";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { fieldsOf, input, output } from "../shared/resourceFields";

/** One user's access to one machine, granted on create and revoked on delete. */
export const machineAccessResource = {
  ...fieldsOf({
    kind: "MachineAccess",
    description: "Access for `userId` to `machineId`. The id is `<machineId>/<userId>`.",
    argsDescription: "Inputs of a {@link MachineAccess}; a change of either replaces the grant.",
    getDescription:
      "Reads an existing access grant, id `<machineId>/<userId>`, into the program without managing\nit; `pulumi destroy` leaves it alone.",
    inputs: z.object({
      machineId: input(z.string(), { change: "replace", description: "The machine to share. Replaces." }),
      userId: input(z.string(), {
        change: "replace",
        description: "The user of the same account or team who may use it. Replaces.",
      }),
    }),
    outputs: z.object({
      machineId: output(z.string(), { description: "The machine the user may use." }),
      userId: output(z.string(), { description: "The user (of the same account or team) who may use it." }),
    }),
  }),
  models: [{ file: "src/provider/access/machineAccessModel.ts", type: "AccessOutputs" }],
  page: "docs/resources/machineAccess.md",
} as const satisfies ResourceDeclaration;
