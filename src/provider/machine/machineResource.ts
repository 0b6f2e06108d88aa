/**
 * The Machine, declared once (shared/resourceDeclaration.ts says who reads what): its fields, from
 * which its class, its diff table and its part of the schema are made; the registry finds its
 * implementation beside it. The outputs the API reports are the wire schema's fields
 * (`MachineSchema`), renamed as machineModel.ts says; it checks at compile time that they are all
 * here.
 */
import { z } from "zod";
import { MachineSchema } from "../../contract/schemas";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { fieldsOf, input, output } from "../shared/resourceFields";

const wire = MachineSchema.shape;
const AS_DECLARED = "As declared: the API does not report it.";

/** Outputs the API reports as they are on the wire (its schema's fields), each with its description. */
function reported<K extends keyof typeof wire>(
  descriptions: Record<K, string>,
): { [F in K]: (typeof wire)[F] } {
  const fields = Object.entries(descriptions).map(([field, description]) => [
    field,
    output(wire[field as K], { description: description as string }),
  ]);
  return Object.fromEntries(fields) as { [F in K]: (typeof wire)[F] };
}

/**
 * A virtual machine, auto-named; the new user's password is a secret even when given as a plain
 * string, and so is its digest.
 */
export const machineResource = {
  ...fieldsOf({
    kind: "Machine",
    description:
      'A virtual machine. `pulumi up` waits until it is `ready` (or `off` when `state: "off"`), with\n' +
      "progress in the log; a machine that was created but did not settle stays in state, and the\n" +
      "next `up` carries on from there.",
    argsDescription: "Inputs of a {@link Machine}. Changing a create-only input replaces the machine.",
    getDescription:
      "Reads an existing machine into the program without managing it: its outputs are the machine\n" +
      "as the API reports it now, and `pulumi destroy` leaves it alone.",
    inputs: z.object({
      region: input(z.string(), {
        change: "replace",
        type: "Region",
        description: 'One of "West Coast (CA1)", "East Coast (NY2)", "Europe (AMS1)". Replaces.',
      }),
      machineType: input(z.string(), {
        change: "replace",
        type: "MachineType",
        description: "Air … V100, C1 … C10. Replaces (the API cannot change it in place).",
      }),
      size: input(z.number(), { change: "replace", description: "Storage size in GB. Replaces." }),
      billingType: input(z.string(), {
        change: "replace",
        type: "BillingType",
        description: '"monthly" or "hourly". Replaces.',
      }),
      templateId: input(z.string(), {
        change: "replace",
        createOnly: true,
        description:
          "Template to create from (see `getTemplates`). Replaces. Needed to create a machine only: the\n" +
          "plugin's SDKs take it as optional, so a machine taken in by `pulumi import` whose template the\n" +
          "API cannot tell may leave it out.",
      }),
      name: input(z.string().optional(), {
        change: "update",
        description:
          'Machine name; defaults to the resource name plus a suffix the stack fixes (docs/resources/README.md, "How names are made"). Updates in place.',
      }),
      state: input(z.string().optional(), {
        change: "power",
        type: "PowerState",
        default: "ready",
        description: 'Power state to keep: "ready" (default) or "off". Updates in place through start/stop.',
      }),
      teamId: input(z.string().optional(), {
        change: "replace",
        description: "Team to create the machine for (team accounts). Replaces.",
      }),
      networkId: input(z.string().optional(), {
        change: "replace",
        description: "Network to create the machine on. Replaces.",
      }),
      scriptId: input(z.string().optional(), {
        change: "replace",
        description:
          "Startup script to run from the first boot. Replaces: the machine is destroyed with its disk\n" +
          "whenever the id changes, as it does when the Script's text is edited. For a script you may\n" +
          'edit, leave this out and create the Script with `machineId` (docs/resources/script.md, "Startup scripts that change").',
      }),
      assignPublicIp: input(z.boolean().optional(), {
        change: "replace",
        description: "A static public IP at creation; not with dynamicPublicIp. Replaces.",
      }),
      dynamicPublicIp: input(z.boolean().optional(), {
        change: "update",
        description: "A public IP at each start, released at stop. Updates in place.",
      }),
      userId: input(z.string().optional(), {
        change: "replace",
        description: "Existing user to assign (team admins). Replaces.",
      }),
      email: input(z.string().optional(), {
        change: "replace",
        description: "New team user: all four of email, password, firstName, lastName. Replaces.",
      }),
      password: input(z.string().optional(), {
        change: "replace",
        secret: true,
        description: "New team user's password: stored only as a secret digest. Replaces.",
      }),
      firstName: input(z.string().optional(), {
        change: "replace",
        description: "New team user's first name. Replaces.",
      }),
      lastName: input(z.string().optional(), {
        change: "replace",
        description: "New team user's last name. Replaces.",
      }),
      notificationEmail: input(z.string().optional(), {
        change: "none",
        description:
          "Address notified when creation completes. Used at create only: a change does nothing to an existing machine.",
      }),
      takeInitialSnapshot: input(z.boolean().optional(), {
        change: "replace",
        description: "Snapshot at first boot. Replaces.",
      }),
      markSnapshotAsRestorePoint: input(z.boolean().optional(), {
        change: "replace",
        description: "Use the initial snapshot as a restore point (needs the two above). Replaces.",
      }),
      restorePointFrequency: input(z.string().optional(), {
        change: "replace",
        type: "RestorePointFrequency",
        description: 'Only "shutdown". Replaces.',
      }),
      shutdownTimeoutInHours: input(z.number().optional(), {
        change: "update",
        description: "Hours before shutdown when nobody is logged in. Updates in place.",
      }),
      shutdownTimeoutForces: input(z.boolean().optional(), {
        change: "update",
        description: "Force shutdown at the timeout. Updates in place.",
      }),
      performAutoSnapshot: input(z.boolean().optional(), {
        change: "update",
        description: "Take snapshots automatically. Updates in place.",
      }),
      autoSnapshotFrequency: input(z.string().optional(), {
        change: "update",
        type: "AutoSnapshotFrequency",
        description: 'How often automatic snapshots are taken: "hour", "day" or "week". Updates in place.',
      }),
      autoSnapshotSaveCount: input(z.number().optional(), {
        change: "update",
        description: "How many automatic snapshots to keep. Updates in place.",
      }),
      waitTimeoutSeconds: input(z.number().optional(), {
        change: "none",
        default: 1200,
        description:
          "How long create, update and delete may wait for the machine, in seconds (default 1200); with\n" +
          "the `customTimeouts` option, the shorter bound applies. A provider setting: updates in place, no API call.",
      }),
      releasePublicIpOnDestroy: input(z.boolean().optional(), {
        change: "none",
        default: false,
        description:
          "Release the public IP when the machine is destroyed. A provider setting: updates in place, no API call.",
      }),
      adoptMachineId: input(z.string().optional(), {
        change: "replace",
        description: "Manage this existing machine instead of creating one. Replaces.",
      }),
    }),
    classInputs: z.object({
      restartTriggers: input(z.array(z.unknown()).optional(), {
        change: "update",
        dynamicOnly: true,
        argType: "pulumi.Input<pulumi.Input<unknown>[]> | (() => pulumi.Input<pulumi.Input<unknown>[]>)",
        description:
          "Any values (secrets too): when one changes, `pulumi up` restarts the machine in place, once,\n" +
          "and waits until it is back in its declared state; a machine declared `off` is not started.\n" +
          "Typically `() => [setup.scriptId]`, where `setup` is a Script attached with `machineId:\n" +
          "machine.machineId` and declared after the machine, so an edited script runs at once: a\n" +
          "function is called once the program's other declarations are made. Held by a child\n" +
          "{@link MachineRestart} named `<name>-restart`, which comes after the machine and whatever the\n" +
          "triggers depend on (docs/resources/machine.md).",
      }),
    }),
    outputs: z.object({
      name: output(wire.name, {
        description: "The machine's name (declared, or the generated `<resource name>-<suffix>`).",
      }),
      region: output(wire.region, {
        type: "ReportedString<Region> | null",
        description:
          "The machine's region as the API reports it: null while unknown, or a region added later.",
      }),
      machineType: output(wire.machineType, {
        type: "ReportedString<MachineType>",
        description:
          "The machine's type as the API reports it (it may report types this package does not list).",
      }),
      size: output(z.number(), { description: AS_DECLARED }),
      billingType: output(z.string(), { type: "BillingType", description: AS_DECLARED }),
      templateId: output(z.string(), { description: AS_DECLARED }),
      state: output(z.string(), {
        type: "PowerState",
        description: 'The declared power state the provider keeps: "ready" or "off".',
      }),
      currentState: output(wire.state, {
        type: "MachineState",
        description:
          "The state the API reported last (off, starting, ready, ...). It differs from `state` while the\n" +
          "machine has not settled (a partial failure, a refresh that found it stopped): the next\n" +
          "`pulumi up` then brings it back to `state`.",
      }),
      passwordDigest: output(z.string().optional(), {
        secret: true,
        description:
          "A salted scrypt digest of the new team user's password (secret); undefined without one.",
      }),
      machineId: output(wire.id, {
        description: "The machine's id in the API, e.g. `psabc1234` (the resource's id too).",
      }),
      agentType: output(wire.agentType, {
        type: "string",
        description: "How the machine is reached: `LinuxHeadless`, `WindowsDesktop`, ...",
      }),
      autoSnapshotFrequency: output(wire.autoSnapshotFrequency, {
        type: "AutoSnapshotFrequency | null",
        description: "How often: `hour`, `day` or `week`.",
      }),
      ...reported({
        os: "The operating system of its template, e.g. `Ubuntu 22.04 Server`.",
        ram: "Memory in bytes, as the numeric string the API sends.",
        cpus: "Number of virtual CPUs.",
        gpu: "The GPU model, e.g. `Quadro P5000`; null for CPU types.",
        storageTotal: "Disk size in bytes, as a numeric string.",
        storageUsed: "Disk used in bytes, as a numeric string.",
        usageRate: "The billing rate's name, e.g. `C4 Hourly`.",
        dtCreated: "When it was created (ISO 8601, UTC).",
        updatesPending: "Whether OS updates wait for the next restart.",
        networkId: "The network it is on.",
        privateIpAddress: "Its address on that network.",
        publicIpAddress: "Its public address, when it has one (static, or dynamic while running).",
        scriptId: "The startup script attached to it.",
        dtLastRun: "When that script last ran (ISO 8601, UTC).",
        userId: "The machine's user; undefined when the API does not report it.",
        teamId: "The machine's team; undefined when the API does not report it.",
        dynamicPublicIp: "Whether a public IP is assigned at each start and released at stop.",
        shutdownTimeoutInHours: "Hours without a login before the machine shuts down.",
        shutdownTimeoutForces: "Whether that shutdown is forced.",
        performAutoSnapshot: "Whether snapshots are taken automatically.",
        autoSnapshotSaveCount: "How many automatic snapshots are kept.",
        restorePointSnapshotId: "The snapshot the machine is restored to, when it has a restore point.",
        restorePointFrequency: "When it is restored (`shutdown`).",
      }),
      events: output(z.array(z.unknown()), {
        type: "MachineEvent[]",
        description: "Its lifecycle events (create, start, stop, ...), newest last, as the API reports them.",
      }),
    }),
  }),
  autoNamed: true,
  // Its inputs, then the machine the API reports (the outputs that are not inputs: `cpus`).
  models: [
    { file: "src/provider/machine/machineModel.ts", type: "MachineInputs" },
    { file: "src/contract/schemas.ts", type: "Machine" },
  ],
  page: "docs/resources/machine.md",
} as const satisfies ResourceDeclaration;
