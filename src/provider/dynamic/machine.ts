/**
 * `Machine`: a virtual machine, brought to the declared power state before `pulumi up` ends.
 */
import * as pulumi from "@pulumi/pulumi";
import type {
  AutoSnapshotFrequency,
  BillingType,
  MachineState,
  MachineType,
  Region,
  RestorePointFrequency,
} from "../../contract/constants";
import type { Machine as ApiMachine, MachineEvent } from "../../contract/schemas";
import type {
  MachineInputKey,
  PowerState,
  ProviderOutput,
  ReportedOutput,
  WireFieldOf,
} from "../machine/machineModel";
import type { Assert, Same } from "../shared/resourceImplementation";
import { VmApiResource, typeToken, type DeclaredOutputs } from "./resourceClass";
import { machineResource } from "../machine/machineResource";
import { MachineRestart } from "./machineRestart";

/** Inputs of a {@link Machine}. Changing a create-only input replaces the machine. */
export interface MachineArgs {
  /**
   * The named account the resource belongs to: an entry of the secret stack config
   * `vmapi:accounts` (a name, never a key). Left out: the default `vmapi:apiKey`. Replaces.
   */
  account?: pulumi.Input<string>;
  /** One of "West Coast (CA1)", "East Coast (NY2)", "Europe (AMS1)". Replaces. */
  region: pulumi.Input<Region>;
  /** Air … V100, C1 … C10. Replaces (the API cannot change it in place). */
  machineType: pulumi.Input<MachineType>;
  /** Storage size in GB. Replaces. */
  size: pulumi.Input<number>;
  /** "monthly" or "hourly". Replaces. */
  billingType: pulumi.Input<BillingType>;
  /**
   * Template to create from (see `getTemplates`). Replaces. Needed to create a machine only: the
   * plugin's SDKs take it as optional, so a machine taken in by `pulumi import` whose template the
   * API cannot tell may leave it out.
   */
  templateId: pulumi.Input<string>;
  /** Machine name; defaults to the resource name plus a suffix the stack fixes (docs/resources/README.md, "How names are made"). Updates in place. */
  name?: pulumi.Input<string>;
  /**
   * Power state to keep: "ready" (default) or "off". Updates in place through start/stop.
   * @defaultValue "ready"
   */
  state?: pulumi.Input<PowerState>;
  /** Team to create the machine for (team accounts). Replaces. */
  teamId?: pulumi.Input<string>;
  /** Network to create the machine on. Replaces. */
  networkId?: pulumi.Input<string>;
  /**
   * Startup script to run from the first boot. Replaces: the machine is destroyed with its disk
   * whenever the id changes, as it does when the Script's text is edited. For a script you may
   * edit, leave this out and create the Script with `machineId` (docs/resources/script.md, "Startup scripts that change").
   */
  scriptId?: pulumi.Input<string>;
  /** A static public IP at creation; not with dynamicPublicIp. Replaces. */
  assignPublicIp?: pulumi.Input<boolean>;
  /** A public IP at each start, released at stop. Updates in place. */
  dynamicPublicIp?: pulumi.Input<boolean>;
  /** Existing user to assign (team admins). Replaces. */
  userId?: pulumi.Input<string>;
  /** New team user: all four of email, password, firstName, lastName. Replaces. */
  email?: pulumi.Input<string>;
  /** New team user's password: stored only as a secret digest. Replaces. */
  password?: pulumi.Input<string>;
  /** New team user's first name. Replaces. */
  firstName?: pulumi.Input<string>;
  /** New team user's last name. Replaces. */
  lastName?: pulumi.Input<string>;
  /** Address notified when creation completes. Used at create only: a change does nothing to an existing machine. */
  notificationEmail?: pulumi.Input<string>;
  /** Snapshot at first boot. Replaces. */
  takeInitialSnapshot?: pulumi.Input<boolean>;
  /** Use the initial snapshot as a restore point (needs the two above). Replaces. */
  markSnapshotAsRestorePoint?: pulumi.Input<boolean>;
  /** Only "shutdown". Replaces. */
  restorePointFrequency?: pulumi.Input<RestorePointFrequency>;
  /** Hours before shutdown when nobody is logged in. Updates in place. */
  shutdownTimeoutInHours?: pulumi.Input<number>;
  /** Force shutdown at the timeout. Updates in place. */
  shutdownTimeoutForces?: pulumi.Input<boolean>;
  /** Take snapshots automatically. Updates in place. */
  performAutoSnapshot?: pulumi.Input<boolean>;
  /** How often automatic snapshots are taken: "hour", "day" or "week". Updates in place. */
  autoSnapshotFrequency?: pulumi.Input<AutoSnapshotFrequency>;
  /** How many automatic snapshots to keep. Updates in place. */
  autoSnapshotSaveCount?: pulumi.Input<number>;
  /**
   * How long create, update and delete may wait for the machine, in seconds (default 1200); with
   * the `customTimeouts` option, the shorter bound applies. A provider setting: updates in place, no API call.
   * @defaultValue 1200
   */
  waitTimeoutSeconds?: pulumi.Input<number>;
  /**
   * Release the public IP when the machine is destroyed. A provider setting: updates in place, no API call.
   * @defaultValue false
   */
  releasePublicIpOnDestroy?: pulumi.Input<boolean>;
  /** Manage this existing machine instead of creating one. Replaces. */
  adoptMachineId?: pulumi.Input<string>;
  /**
   * Any values (secrets too): when one changes, `pulumi up` restarts the machine in place, once,
   * and waits until it is back in its declared state; a machine declared `off` is not started.
   * Typically `() => [setup.scriptId]`, where `setup` is a Script attached with `machineId:
   * machine.machineId` and declared after the machine, so an edited script runs at once: a
   * function is called once the program's other declarations are made. Held by a child
   * {@link MachineRestart} named `<name>-restart`, which comes after the machine and whatever the
   * triggers depend on (docs/resources/machine.md).
   */
  restartTriggers?: pulumi.Input<pulumi.Input<unknown>[]> | (() => pulumi.Input<pulumi.Input<unknown>[]>);
}

/**
 * A string the API reports: one of the known values, or another the API may add (the wire
 * schema accepts any string there). `(string & {})` keeps editors suggesting the known ones.
 */
export type ReportedString<Known extends string> = Known | (string & {});

/**
 * A virtual machine. `pulumi up` waits until it is `ready` (or `off` when `state: "off"`), with
 * progress in the log; a machine that was created but did not settle stays in state, and the
 * next `up` carries on from there.
 */
export class Machine extends VmApiResource {
  /** The machine's name (declared, or the generated `<resource name>-<suffix>`). */
  declare readonly name: pulumi.Output<string>;
  /** The machine's region as the API reports it: null while unknown, or a region added later. */
  declare readonly region: pulumi.Output<ReportedString<Region> | null>;
  /** The machine's type as the API reports it (it may report types this package does not list). */
  declare readonly machineType: pulumi.Output<ReportedString<MachineType>>;
  /** As declared: the API does not report it. */
  declare readonly size: pulumi.Output<number>;
  /** As declared: the API does not report it. */
  declare readonly billingType: pulumi.Output<BillingType>;
  /** As declared: the API does not report it. */
  declare readonly templateId: pulumi.Output<string>;
  /** The declared power state the provider keeps: "ready" or "off". */
  declare readonly state: pulumi.Output<PowerState>;
  /**
   * The state the API reported last (off, starting, ready, ...). It differs from `state` while the
   * machine has not settled (a partial failure, a refresh that found it stopped): the next
   * `pulumi up` then brings it back to `state`.
   */
  declare readonly currentState: pulumi.Output<MachineState>;
  /** A salted scrypt digest of the new team user's password (secret); undefined without one. */
  declare readonly passwordDigest: pulumi.Output<string | undefined>;
  /** The named account of `vmapi:accounts` the resource belongs to; undefined: the default key. */
  declare readonly account: pulumi.Output<string | undefined>;
  /** The machine's id in the API, e.g. `psabc1234` (the resource's id too). */
  declare readonly machineId: pulumi.Output<string>;
  /** The operating system of its template, e.g. `Ubuntu 22.04 Server`. */
  declare readonly os: pulumi.Output<string | null>;
  /** Memory in bytes, as the numeric string the API sends. */
  declare readonly ram: pulumi.Output<string | null>;
  /** Number of virtual CPUs. */
  declare readonly cpus: pulumi.Output<number>;
  /** The GPU model, e.g. `Quadro P5000`; null for CPU types. */
  declare readonly gpu: pulumi.Output<string | null>;
  /** Disk size in bytes, as a numeric string. */
  declare readonly storageTotal: pulumi.Output<string | null>;
  /** Disk used in bytes, as a numeric string. */
  declare readonly storageUsed: pulumi.Output<string | null>;
  /** The billing rate's name, e.g. `C4 Hourly`. */
  declare readonly usageRate: pulumi.Output<string>;
  /** How the machine is reached: `LinuxHeadless`, `WindowsDesktop`, ... */
  declare readonly agentType: pulumi.Output<string>;
  /** When it was created (ISO 8601, UTC). */
  declare readonly dtCreated: pulumi.Output<string>;
  /** Whether OS updates wait for the next restart. */
  declare readonly updatesPending: pulumi.Output<boolean>;
  /** The network it is on. */
  declare readonly networkId: pulumi.Output<string | null>;
  /** Its address on that network. */
  declare readonly privateIpAddress: pulumi.Output<string | null>;
  /** Its public address, when it has one (static, or dynamic while running). */
  declare readonly publicIpAddress: pulumi.Output<string | null>;
  /** The startup script attached to it. */
  declare readonly scriptId: pulumi.Output<string | null>;
  /** When that script last ran (ISO 8601, UTC). */
  declare readonly dtLastRun: pulumi.Output<string | null>;
  /** The machine's user; undefined when the API does not report it. */
  declare readonly userId: pulumi.Output<string | null | undefined>;
  /** The machine's team; undefined when the API does not report it. */
  declare readonly teamId: pulumi.Output<string | null | undefined>;
  /** Whether a public IP is assigned at each start and released at stop. */
  declare readonly dynamicPublicIp: pulumi.Output<boolean>;
  /** Hours without a login before the machine shuts down. */
  declare readonly shutdownTimeoutInHours: pulumi.Output<number>;
  /** Whether that shutdown is forced. */
  declare readonly shutdownTimeoutForces: pulumi.Output<boolean>;
  /** Whether snapshots are taken automatically. */
  declare readonly performAutoSnapshot: pulumi.Output<boolean>;
  /** How often: `hour`, `day` or `week`. */
  declare readonly autoSnapshotFrequency: pulumi.Output<AutoSnapshotFrequency | null>;
  /** How many automatic snapshots are kept. */
  declare readonly autoSnapshotSaveCount: pulumi.Output<number | null>;
  /** The snapshot the machine is restored to, when it has a restore point. */
  declare readonly restorePointSnapshotId: pulumi.Output<string | null>;
  /** When it is restored (`shutdown`). */
  declare readonly restorePointFrequency: pulumi.Output<string | null>;
  /** Its lifecycle events (create, start, stop, ...), newest last, as the API reports them. */
  declare readonly events: pulumi.Output<MachineEvent[]>;

  /** @internal The type the engine knows this resource by. */
  static readonly __pulumiType = typeToken("Machine");

  /**
   * Reads an existing machine into the program without managing it: its outputs are the machine
   * as the API reports it now, and `pulumi destroy` leaves it alone.
   */
  static get(name: string, id: pulumi.Input<pulumi.ID>, opts?: pulumi.CustomResourceOptions): Machine {
    return new Machine(name, {} as MachineArgs, { ...opts, id });
  }

  constructor(name: string, args: MachineArgs, opts?: pulumi.CustomResourceOptions) {
    const { restartTriggers, ...machineArgs } = args;
    super(machineResource, name, machineArgs, opts);
    if (typeof restartTriggers === "function") {
      // Called after the program's synchronous declarations: the triggers may name resources
      // declared after this machine (the Script attached to it).
      queueMicrotask(() => restartOf(this, name, args, triggersOf(name, restartTriggers), opts));
    } else if (restartTriggers !== undefined) restartOf(this, name, args, restartTriggers, opts);
  }
}

/**
 * The child that restarts `machine` when `triggers` change: it depends on the machine and on
 * whatever the triggers come from (a Script attached to this machine), so it runs after both.
 */
function restartOf(
  machine: Machine,
  name: string,
  args: MachineArgs,
  triggers: pulumi.Input<pulumi.Input<unknown>[]>,
  opts: pulumi.CustomResourceOptions | undefined,
): MachineRestart {
  const ignored = opts?.ignoreChanges?.includes("restartTriggers") ? ["triggers"] : undefined;
  return new MachineRestart(
    `${name}-restart`,
    {
      account: args.account,
      machineId: machine.machineId,
      triggers,
      state: args.state,
      waitTimeoutSeconds: args.waitTimeoutSeconds,
    },
    { parent: machine, customTimeouts: opts?.customTimeouts, ignoreChanges: ignored },
  );
}

/** The triggers a function gives; what it throws fails the program naming the machine. */
function triggersOf(
  name: string,
  triggers: () => pulumi.Input<pulumi.Input<unknown>[]>,
): pulumi.Input<pulumi.Input<unknown>[]> {
  try {
    return triggers();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new pulumi.RunError(`Machine ${name}: restartTriggers: the function failed: ${why}`);
  }
}

/*
 * Compile-time checks that the class above and the wire schema agree (`npm run typecheck` and the
 * build fail otherwise): the declared outputs are exactly the fields the API reports, renamed as
 * machineModel.ts says, plus the outputs listed here; and each declared type accepts every value
 * the schema lets through, so an output cannot promise less than the API may send.
 */
/**
 * Outputs a Machine declares that the API does not report: inputs kept as declared, the digest,
 * and the named account (the runtime's, account/namedAccounts.ts).
 */
type UnreportedOutput =
  Extract<MachineInputKey, "size" | "billingType" | "templateId" | "state"> | ProviderOutput | "account";
type DeclaredOutput = DeclaredOutputs<Machine>;
type ValueOf<K> = K extends keyof Machine ? (Machine[K] extends pulumi.Output<infer T> ? T : never) : never;
type NarrowerThanWire = {
  [O in ReportedOutput]: Exclude<ApiMachine[WireFieldOf<O>], undefined> extends ValueOf<O> ? never : O;
}[ReportedOutput];
type _DeclaredOutputsAreTheSchemas = Assert<Same<DeclaredOutput, ReportedOutput | UnreportedOutput>>;
type _DeclaredTypesAcceptTheWire = Assert<Same<NarrowerThanWire, never>>;
