/**
 * The Machine resource as data: its diff table, how inputs become API bodies, and how an API
 * machine becomes outputs and (on refresh) inputs. The outputs the API reports are derived from
 * the wire schema (`MachineSchema`), so a field added there is an output here; machine.ts checks
 * its declared outputs against the same list at compile time.
 */
import * as crypto from "crypto";
import { z } from "zod";
import {
  CreateMachineRequestSchema,
  type CreateMachineRequest,
  type UpdateMachineRequest,
} from "../../contract/requestSchemas";
import { MachineSchema, type Machine as ApiMachine } from "../../contract/schemas";
import { definedOnly } from "../shared/checks";
import type { Assert, EngineProps, Props, Same } from "../shared/resourceImplementation";

export { MACHINE_DIFF_TABLE, type MachineInputKey } from "./machineDiffTable";
import { MACHINE_DIFF_TABLE, type MachineInputKey } from "./machineDiffTable";
import { machineResource } from "./machineResource";

/** Inputs whose wire name differs from the Pulumi property name. */
const WIRE_NAMES: Partial<Record<MachineInputKey, string>> = { name: "machineName" };
/** The property a wire field of a create/update body came from. */
export function machinePropertyOf(wireField: string): string {
  const hit = Object.entries(WIRE_NAMES).find(([, wire]) => wire === wireField);
  return hit ? hit[0] : wireField;
}

/**
 * The create body for these inputs: each field of the create schema from the input it comes from
 * (`machineName` from `name`), and `startOnCreate` from the wanted power state. The in-place
 * settings the create schema takes travel here, so no update follows the create for them; one it
 * does not take (`shutdownTimeoutForces`) is applied by the update after it (`converge`).
 */
export function createBody(inputs: Record<string, unknown>): CreateMachineRequest {
  const body: Record<string, unknown> = {};
  for (const field of Object.keys(CreateMachineRequestSchema.shape))
    body[field] = inputs[machinePropertyOf(field)];
  body.startOnCreate = (inputs.state ?? "ready") !== "off";
  return definedOnly(body) as unknown as CreateMachineRequest;
}

/** The update body for the in-place rows among `keys`, with values from `inputs`. */
export function updateBody(inputs: Record<string, unknown>, keys: readonly string[]): UpdateMachineRequest {
  const body: Record<string, unknown> = {};
  for (const key of keys) {
    if (MACHINE_DIFF_TABLE[key as MachineInputKey] !== "update" || inputs[key] === undefined) continue;
    body[WIRE_NAMES[key as MachineInputKey] ?? key] = inputs[key];
  }
  return body as UpdateMachineRequest;
}

/** The in-place rows whose declared value differs from the machine's actual one. */
export function updateKeysAgainst(inputs: Record<string, unknown>, machine: ApiMachine): MachineInputKey[] {
  const actual = actualInputs(machine);
  return (Object.keys(MACHINE_DIFF_TABLE) as MachineInputKey[]).filter(
    (key) =>
      MACHINE_DIFF_TABLE[key] === "update" &&
      inputs[key] !== undefined &&
      JSON.stringify(inputs[key]) !== JSON.stringify(actual[key]),
  );
}

/** A power state a Machine can declare and keep: "ready" (running) or "off" (stopped). */
export type PowerState = "ready" | "off";
/** The power states a Machine can declare, as messages list them. */
export const POWER_STATES = ["ready", "off"] as const satisfies readonly PowerState[];

/** True when `value` is a power state a Machine can declare. */
export function isPowerState(value: unknown): value is PowerState {
  return (POWER_STATES as readonly unknown[]).includes(value);
}

/**
 * The declared power state, as the `state` output holds it. State written by 0.1.0 held the
 * observed state there (e.g. "starting" after a timed-out wait): a transitional value reads as
 * the power state it was heading to.
 */
export function declaredPowerState(value: unknown): PowerState {
  return value === "off" || value === "stopping" ? "off" : "ready";
}

/**
 * Where the machine stands for the diff of `state`: the observed state when the outputs have one,
 * so a machine that has not settled in the declared state (a partial failure, a refresh that saw
 * it stopped) shows a change and the next `pulumi up` carries on.
 */
export function observedPowerState(outputs: MachineOutputs): unknown {
  return outputs.currentState ?? outputs.state;
}

/**
 * The Machine's own settings that no request carries, with their rules: `check` applies them
 * (machineCheck.ts), and the package schema reads their types here (a whole number of seconds).
 */
export const MachineOwnSettingsSchema = z.object({
  /** How long create, update and delete may wait for the machine: whole seconds, up to a day. */
  waitTimeoutSeconds: z.number().int().min(1).max(86_400),
});
type MachineOwnSettings = z.infer<typeof MachineOwnSettingsSchema>;

/**
 * A Machine's inputs, each typed by the request schema that carries it to the API (`name` is the
 * wire's `machineName`; `startOnCreate` comes from `state`), and the provider's own settings.
 */
type MachineInputFields = Omit<CreateMachineRequest, "machineName" | "startOnCreate"> &
  Omit<UpdateMachineRequest, "machineName"> & {
    name: CreateMachineRequest["machineName"];
    state: PowerState;
    waitTimeoutSeconds: MachineOwnSettings["waitTimeoutSeconds"];
    releasePublicIpOnDestroy: boolean;
    adoptMachineId: string;
  };

/** The inputs a Machine's provider receives (checked by `check`, machineCheck.ts). */
export type MachineInputs = Props<MachineInputFields>;

/**
 * Each output: an input kept as declared, overlaid by the API's value when it reports one (so
 * either type), or a reported field typed as the wire schema types it.
 */
type OutputFields = {
  [K in ReportedOutput | Exclude<MachineInputKey, "password">]:
    | (K extends ReportedOutput ? ApiMachine[WireFieldOf<K>] : never)
    | (K extends keyof MachineInputFields ? MachineInputFields[K] : never);
};

/**
 * The outputs a Machine's provider stores: the inputs (the password only as its digest) overlaid
 * with what the API reports. `state` is the declared power state and `currentState` the observed
 * one, but they are read as any string: state written by 0.1.0 holds an observed state in `state`
 * (`declaredPowerState` reads it), and the API may report a state this package does not list.
 */
export type MachineOutputs = Props<
  Omit<OutputFields, "state" | "currentState"> & {
    state: string;
    currentState: string;
    passwordDigest: string;
  }
>;

/** A field of the machine as the API sends it. */
type WireField = keyof ApiMachine;

/**
 * Wire fields a Machine reports under another name: `id` is the resource's id already, and
 * `state` is the declared power state, so the API's state is `currentState`.
 */
const RENAMED = { id: "machineId", state: "currentState" } as const;
/** Wire fields that are not outputs: `internalId` comes in lists only and means nothing to a stack. */
const NOT_REPORTED = ["internalId"] as const;

/** The output a wire field becomes. */
export type OutputOf<F extends WireField> = F extends keyof typeof RENAMED ? (typeof RENAMED)[F] : F;
/** The wire field behind a reported output. */
export type WireFieldOf<O extends ReportedOutput> = {
  [F in ReportedField]: OutputOf<F> extends O ? F : never;
}[ReportedField];
type ReportedField = Exclude<WireField, (typeof NOT_REPORTED)[number]>;
/** Every output the API reports: the schema's fields, renamed, less those that are not outputs. */
export type ReportedOutput = OutputOf<ReportedField>;

/** The reported wire fields, read from the schema. */
const REPORTED_FIELDS = (Object.keys(MachineSchema.shape) as WireField[]).filter(
  (field): field is ReportedField => !(NOT_REPORTED as readonly string[]).includes(field),
);

function outputOf(field: ReportedField): ReportedOutput {
  return (RENAMED as Partial<Record<WireField, ReportedOutput>>)[field] ?? (field as ReportedOutput);
}

/** Outputs the provider makes itself: neither an input nor reported by the API. */
const PROVIDER_OUTPUTS = ["passwordDigest"] as const;
/** An output the provider makes itself. */
export type ProviderOutput = (typeof PROVIDER_OUTPUTS)[number];

/**
 * Every output key the API reports or the provider makes (some are inputs too): what the
 * resource must pass as undefined with its inputs, or the engine leaves it out of the resource.
 */
export const MACHINE_OUTPUT_KEYS: readonly string[] = [...REPORTED_FIELDS.map(outputOf), ...PROVIDER_OUTPUTS];

/**
 * Inputs as the API sees them now, what refresh reports as drift: every reported field whose
 * output is also an input (the wire's `state` is not: it reports as `currentState`).
 */
export function actualInputs(machine: ApiMachine): Partial<Record<MachineInputKey, unknown>> {
  const inputs: Partial<Record<MachineInputKey, unknown>> = {};
  for (const field of REPORTED_FIELDS) {
    const key = outputOf(field);
    if (key in MACHINE_DIFF_TABLE && machine[field] !== undefined)
      inputs[key as MachineInputKey] = machine[field];
  }
  return inputs;
}

/**
 * Outputs: the declared inputs (the password only as a salted digest), overlaid with every
 * field the API reports; `state` stays the declared power state.
 */
export function machineOutputs(
  declared: MachineInputs | MachineOutputs | EngineProps,
  machine: ApiMachine,
): MachineOutputs {
  const { password, ...rest } = declared;
  const outs: Record<string, unknown> = { ...rest };
  if (typeof password === "string") outs.passwordDigest = digestPassword(password, declared.passwordDigest);
  for (const field of REPORTED_FIELDS) {
    if (machine[field] !== undefined) outs[outputOf(field)] = machine[field];
  }
  // A machine read from a list carries no events; the output is a list all the same.
  outs.events = machine.events ?? [];
  outs.state = declaredPowerState(declared.state);
  // The plugin cannot encode undefined ("Unexpected struct type").
  return definedOnly(outs);
}

/**
 * A salted scrypt digest, so a change of password can be detected without keeping it. Reuses
 * the old salt when the password is unchanged, so outputs stay stable.
 */
export function digestPassword(password: string, previous?: unknown): string {
  if (typeof previous === "string" && passwordMatches(password, previous)) return previous;
  const salt = crypto.randomBytes(16).toString("hex");
  return `scrypt$${salt}$${crypto.scryptSync(password, salt, 32).toString("hex")}`;
}

/** True when `password` is the one `digest` was made from. */
export function passwordMatches(password: unknown, digest: unknown): boolean {
  if (typeof password !== "string" || typeof digest !== "string") return password === digest;
  const [scheme, salt, hash] = digest.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const candidate = crypto.scryptSync(password, salt, 32);
  return crypto.timingSafeEqual(candidate, Buffer.from(hash, "hex"));
}

type DeclaredOutput = keyof typeof machineResource.outputs.shape;

/*
 * Compile-time checks that the typed inputs are exactly the rows of the diff table; that every
 * field the API reports is a declared output, renamed as above, and every other declared output
 * an input kept as declared or one the provider makes (test/types/machineWire.types.ts holds the
 * class's types to the wire's); and that every power state is listed.
 */
type _ReportedOutputsAreDeclared = Assert<Same<Exclude<ReportedOutput, DeclaredOutput>, never>>;
type _DeclaredOutputsAreKnown = Assert<
  Same<Exclude<DeclaredOutput, ReportedOutput | MachineInputKey | ProviderOutput>, never>
>;
type _InputFieldsAreTheDiffTable = Assert<Same<keyof MachineInputFields, MachineInputKey>>;
type _PowerStatesAreListed = Assert<Same<(typeof POWER_STATES)[number], PowerState>>;
