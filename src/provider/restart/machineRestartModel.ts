/**
 * The MachineRestart resource as data: the machine it restarts, the values whose change restarts
 * it, and what decides whether a restart runs (the machine's declared power state) and how long
 * it may wait. Its outputs are its inputs, and the machine's state after the last restart.
 */
import { z } from "zod";
import type { Assert, Props, Same } from "../shared/resourceImplementation";
import type { PowerState } from "../machine/machineModel";
import { machineRestartResource } from "./machineRestartResource";

/**
 * The MachineRestart's own settings, with their rules: `check` applies them, and the package
 * schema reads their types here (a whole number of seconds).
 */
export const RestartSettingsSchema = z.object({
  /** How long a restart may wait for the machine to come back: whole seconds. */
  waitTimeoutSeconds: z.number().int().positive(),
});

/** A MachineRestart's inputs. */
interface RestartFields {
  machineId: string;
  triggers: unknown[];
  state: PowerState;
  waitTimeoutSeconds: z.infer<typeof RestartSettingsSchema>["waitTimeoutSeconds"];
}

/** The inputs a MachineRestart's provider receives (checked by its `check`). */
export type RestartInputs = Props<RestartFields>;

/** What it stores: the inputs, the machine's state when the last restart ended, and when that was. */
export type RestartOutputs = Props<RestartFields & { currentState: string; restartedAt: string }>;

type InputKey = keyof typeof machineRestartResource.inputs.shape;
type OutputKey = keyof typeof machineRestartResource.outputs.shape;

/** Every input key of a MachineRestart, as its declaration has them. */
export const RESTART_INPUT_KEYS = machineRestartResource.inputNames as readonly InputKey[];

/* Compile-time checks that the declared fields are the typed ones: the inputs, and the outputs besides them. */
type _InputKeys = Assert<Same<InputKey, keyof RestartFields>>;
type _OutputKeys = Assert<Same<Exclude<OutputKey, InputKey>, "currentState" | "restartedAt">>;
