/**
 * Property values on the wire: Go `MarshalPropertyValue`/`UnmarshalPropertyValue` between
 * {@link Props} and protobuf `Struct`s, with the SDK's secret signature and unknown sentinels.
 */
import * as pulumi from "@pulumi/pulumi";
import type * as structprotoT from "google-protobuf/google/protobuf/struct_pb";
import { EngineError, HarnessUsageError } from "./errors";
import { structproto } from "./sdk";
import { Secret, UNKNOWN, isPropObject, type PropValue, type Props } from "./values";

// Wire constants, taken from the SDK rather than restated.
const SIG_KEY: string = pulumi.runtime.specialSigKey;
const SECRET_SIG: string = pulumi.runtime.specialSecretSig;
const UNKNOWN_STRING: string = pulumi.runtime.unknownValue;
// Go rpc.go: all typed unknown sentinels are recognised when unmarshaling.
const UNKNOWN_SENTINELS = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7",
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421",
  UNKNOWN_STRING,
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2",
  "030794c1-ac77-496b-92df-f27374a8bd58",
  "e48ece36-62e2-4504-bad9-02848725956a",
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff",
]);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
/** Whether secrets and unknowns go on the wire (the engine strips both for some providers and calls). */
export interface MarshalOpts {
  keepSecrets: boolean;
  keepUnknowns: boolean;
}
/** Whether unknown sentinels read back become {@link UNKNOWN}, are dropped, or are an {@link EngineError}. */
export interface UnmarshalOpts {
  keepUnknowns: boolean;
  rejectUnknowns: boolean;
}
const SKIP = Symbol("skip");

/** Go `MarshalPropertyValue` (subset: no assets, resources, output values). */
function marshalValue(v: PropValue, opts: MarshalOpts, where: string): Json | typeof SKIP {
  if (v === undefined) return SKIP;
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
  if (v === UNKNOWN) return opts.keepUnknowns ? UNKNOWN_STRING : SKIP;
  if (v instanceof Secret) {
    const inner = marshalValue(v.value, opts, where);
    if (!opts.keepSecrets || inner === SKIP) return inner;
    return { [SIG_KEY]: SECRET_SIG, value: inner };
  }
  if (Array.isArray(v)) {
    const out: Json[] = [];
    v.forEach((e, i) => {
      const m = marshalValue(e, opts, `${where}[${i}]`);
      if (m !== SKIP) out.push(m);
    });
    return out;
  }
  if (isPropObject(v) && Object.getPrototypeOf(v) === Object.prototype) {
    return marshalProps(v, opts, where);
  }
  throw new HarnessUsageError(`${where}: not a property value: ${String(v)} (${typeof v})`);
}

function marshalProps(props: Props, opts: MarshalOpts, where: string): { [k: string]: Json } {
  const out: { [k: string]: Json } = {};
  for (const key of Object.keys(props).sort()) {
    const m = marshalValue(props[key], opts, `${where}.${key}`);
    if (m !== SKIP) out[key] = m;
  }
  return out;
}

/** {@link Props} as the request `Struct` (keys sorted; skipped values left out). */
export function toStruct(props: Props, opts: MarshalOpts, where: string): structprotoT.Struct {
  return structproto.Struct.fromJavaScript(marshalProps(props, opts, where));
}

/** Go `UnmarshalPropertyValue`: sentinels become UNKNOWN, secret-signature objects become Secret. */
function unmarshalValue(v: unknown, opts: UnmarshalOpts, where: string): PropValue | typeof SKIP {
  if (v === null || typeof v === "boolean" || typeof v === "number") return v;
  if (typeof v === "string") {
    if (!UNKNOWN_SENTINELS.has(v)) return v;
    if (opts.rejectUnknowns) throw new EngineError(`unexpected unknown property value for "${where}"`);
    return opts.keepUnknowns ? UNKNOWN : SKIP;
  }
  if (Array.isArray(v)) {
    return v.map((e, i) => {
      const u = unmarshalValue(e, opts, `${where}[${i}]`);
      return u === SKIP ? null : u;
    });
  }
  if (typeof v === "object") {
    const obj = v as { [k: string]: unknown };
    if (obj[SIG_KEY] === SECRET_SIG) {
      const inner = unmarshalValue(obj.value, opts, where);
      return inner === SKIP ? SKIP : new Secret(inner);
    }
    // Other signatures (assets, archives, resource references) are kept as their raw objects.
    return unmarshalProps(obj, opts, where);
  }
  throw new EngineError(`${where}: unexpected wire value ${String(v)}`);
}

function unmarshalProps(obj: { [k: string]: unknown }, opts: UnmarshalOpts, where: string): Props {
  const out: Props = {};
  for (const key of Object.keys(obj).sort()) {
    const u = unmarshalValue(obj[key], opts, `${where}.${key}`);
    if (u !== SKIP) out[key] = u;
  }
  return out;
}

/** A response `Struct` as {@link Props}; a missing struct is empty. */
export function fromStruct(s: structprotoT.Struct | undefined, opts: UnmarshalOpts, where: string): Props {
  return s ? unmarshalProps(s.toJavaScript() as { [k: string]: unknown }, opts, where) : {};
}
