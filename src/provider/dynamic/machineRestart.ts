/**
 * `MachineRestart`: restarts a machine in place whenever its `triggers` change. A `Machine`
 * declared with `restartTriggers` makes one as its child; declare it yourself where a Machine
 * cannot hold the triggers (other Pulumi languages, or a machine managed elsewhere).
 */
import * as pulumi from "@pulumi/pulumi";
import type { Assert } from "../shared/resourceImplementation";
import { VmApiResource, typeToken, type RegistersItsOutputs } from "./resourceClass";
import type { PowerState } from "../machine/machineModel";
import { machineRestartResource } from "../restart/machineRestartResource";

/** Inputs of a {@link MachineRestart}. */
export interface MachineRestartArgs {
  /**
   * The named account the machine belongs to: an entry of the secret stack config
   * `vmapi:accounts` (a name, never a key). Left out: the default `vmapi:apiKey`.
   */
  account?: pulumi.Input<string>;
  /** The machine to restart. A new machine (a replaced one) replaces this resource: no restart. */
  machineId: pulumi.Input<string>;
  /**
   * Any values (secrets too): when one changes, `pulumi up` restarts the machine once, in place,
   * and waits until it is ready. Declaring them first restarts nothing.
   */
  triggers: pulumi.Input<pulumi.Input<unknown>[]>;
  /**
   * The machine's declared power state. "off": a changed trigger is recorded, and the machine is
   * neither started nor restarted. @defaultValue "ready"
   */
  state?: pulumi.Input<PowerState>;
  /**
   * How long the restart may take, in seconds (default 1200); with `customTimeouts.update`, the
   * shorter applies.
   * @defaultValue 1200
   */
  waitTimeoutSeconds?: pulumi.Input<number>;
}

/** The restart of a machine, whenever values it is given change. */
export class MachineRestart extends VmApiResource {
  /** The named account of `vmapi:accounts` the resource belongs to; undefined: the default key. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The machine it restarts. */
  declare readonly machineId: pulumi.Output<string>;
  /** The values whose change restarts it. */
  declare readonly triggers: pulumi.Output<unknown[]>;
  /** The machine's declared power state. */
  declare readonly state: pulumi.Output<PowerState>;
  /** The bound of a restart's wait, in seconds, when declared. */
  declare readonly waitTimeoutSeconds: pulumi.Output<number | undefined>;
  /** The machine's state when the last restart ended; undefined before any. */
  declare readonly currentState: pulumi.Output<string | undefined>;
  /** When the last restart was made (ISO 8601, UTC); undefined before any. */
  declare readonly restartedAt: pulumi.Output<string | undefined>;

  /** @internal The type the engine knows this resource by. */
  static readonly __pulumiType = typeToken("MachineRestart");

  constructor(name: string, args: MachineRestartArgs, opts?: pulumi.CustomResourceOptions) {
    super(machineRestartResource, name, args, opts);
  }
}

/* Compile-time check that every output the class declares is registered (else it stays undefined). */
type _RegistersItsOutputs = Assert<
  RegistersItsOutputs<MachineRestart, (typeof machineRestartResource.keys)[number]>
>;
