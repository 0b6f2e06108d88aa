/**
 * The MachineRestart, declared once (shared/resourceDeclaration.ts says who reads what): its
 * fields, from which its class, its diff table and its part of the schema are made; the registry
 * finds its implementation beside it.
 */
import { z } from "zod";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { fieldsOf, input, output } from "../shared/resourceFields";

/** A machine's restart on changed triggers: its inputs, its outputs and the account. */
export const machineRestartResource = {
  ...fieldsOf({
    kind: "MachineRestart",
    description: "The restart of a machine, whenever values it is given change.",
    argsDescription: "Inputs of a {@link MachineRestart}.",
    inputs: z.object({
      machineId: input(z.string(), {
        change: "replace",
        description:
          "The machine to restart. A new machine (a replaced one) replaces this resource: no restart.",
      }),
      triggers: input(z.array(z.unknown()), {
        change: "update",
        description:
          "Any values (secrets too): when one changes, `pulumi up` restarts the machine once, in place,\n" +
          "and waits until it is ready. Declaring them first restarts nothing.",
      }),
      state: input(z.enum(["ready", "off"]).optional(), {
        change: "update",
        type: "PowerState",
        default: "ready",
        description:
          'The machine\'s declared power state. "off": a changed trigger is recorded, and the machine is\n' +
          "neither started nor restarted.",
      }),
      waitTimeoutSeconds: input(z.number().optional(), {
        change: "none",
        default: 1200,
        description:
          "How long the restart may take, in seconds (default 1200); with `customTimeouts.update`, the\n" +
          "shorter applies.",
      }),
    }),
    outputs: z.object({
      machineId: output(z.string(), { description: "The machine it restarts." }),
      triggers: output(z.array(z.unknown()), { description: "The values whose change restarts it." }),
      state: output(z.string(), { type: "PowerState", description: "The machine's declared power state." }),
      waitTimeoutSeconds: output(z.number().optional(), {
        description: "The bound of a restart's wait, in seconds, when declared.",
      }),
      currentState: output(z.string().optional(), {
        description: "The machine's state when the last restart ended; undefined before any.",
      }),
      restartedAt: output(z.string().optional(), {
        description: "When the last restart was made (ISO 8601, UTC); undefined before any.",
      }),
    }),
  }),
  models: [{ file: "src/provider/restart/machineRestartModel.ts", type: "RestartOutputs" }],
  page: "docs/resources/machineRestart.md",
} as const satisfies ResourceDeclaration;
