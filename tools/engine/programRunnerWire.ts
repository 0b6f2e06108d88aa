/**
 * What the program runner's two processes exchange, and how property values travel: as the
 * Pulumi wire format (JSON, secrets as signature objects, unknowns as the sentinel string), turned
 * into the harness's {@link Props} (with `Secret` and `UNKNOWN` markers) on the engine side.
 */
import * as pulumi from "@pulumi/pulumi";
import { Secret, UNKNOWN, type PropValue, type Props } from "./providerHarness";

/** Key marking a special object on the wire (`4dabf181…`). */
export const SIG_KEY: string = pulumi.runtime.specialSigKey;
/** Signature of a secret on the wire (`1b470612…`). */
export const SECRET_SIG: string = pulumi.runtime.specialSecretSig;
/** The unknown (computed) value on the wire (`04da6b54-…`). */
export const UNKNOWN_STRING: string = pulumi.runtime.unknownValue;

/** A JSON value in the Pulumi wire format. */
export type Wire = null | boolean | number | string | Wire[] | { [key: string]: Wire };
/** A property map in the Pulumi wire format. */
export interface WireProps {
  [key: string]: Wire;
}

/** Wire → harness values: secret signatures become `Secret`, the sentinel becomes `UNKNOWN`. */
export function fromWire(props: WireProps): Props {
  return fromWireValue(props) as Props;
}

function fromWireValue(v: Wire): PropValue {
  if (v === UNKNOWN_STRING) return UNKNOWN;
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(fromWireValue);
  if (v[SIG_KEY] === SECRET_SIG) return new Secret(fromWireValue(v.value ?? null));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromWireValue(x)]));
}

/** Harness values → wire: `Secret` becomes a signature object, `UNKNOWN` the sentinel string. */
export function toWire(props: Props): WireProps {
  return toWireValue(props) as WireProps;
}

function toWireValue(v: PropValue): Wire {
  if (v === UNKNOWN) return UNKNOWN_STRING;
  if (v instanceof Secret) return { [SIG_KEY]: SECRET_SIG, value: toWireValue(v.value) };
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(toWireValue);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toWireValue(x)]));
}

/** The resource options the engine would receive with a registration (read from the request). */
export interface RegistrationOptions {
  additionalSecretOutputs: string[];
  ignoreChanges: string[];
  /** Undefined when the program did not set it (the provider's diff then decides). */
  deleteBeforeReplace?: boolean;
  protect: boolean;
  retainOnDelete: boolean;
  dependencies: string[];
}

/** Child → runner: the program registered a custom resource (MockMonitor.registerResource). */
export interface RegisterMessage {
  kind: "register";
  rid: number;
  type: string;
  name: string;
  /** The parent's URN as the SDK sent it ("" or the stack for top-level resources). */
  parent: string;
  inputs: WireProps;
  options: RegistrationOptions;
}

/** Child → runner: the program finished; `outputs` are the stack's registered outputs. */
export interface DoneMessage {
  kind: "done";
  outputs: WireProps;
}

/** Child → runner: the program failed (module load, an exception, a rejected registration). */
export interface FailedMessage {
  kind: "failed";
  message: string;
}

export type ChildMessage = RegisterMessage | DoneMessage | FailedMessage;

/** Runner → child: the answer to a registration, as the engine's RegisterResourceResponse. */
export type ReplyMessage =
  | { kind: "registered"; rid: number; id?: string; state: WireProps }
  | { kind: "rejected"; rid: number; message: string };

/** How the runner starts the child (JSON in argv[2]). */
export interface ChildStart {
  program: string;
  project: string;
  stack: string;
  preview: boolean;
  /** Absolute path the bare specifier "pulumi-vmapi" resolves to in the program process. */
  packageEntry: string;
}
