/**
 * The plugin door's boundary: a property bag as the engine sends it, opened for an implementation,
 * and the engine's facts of a request as a `Call` tells them. The engine tells the plugin the
 * URN, its `randomSeed` and each operation's timeout with every request, so the plugin keeps in
 * state only what no request says again: whether the resource's name was drawn by auto-naming
 * (`__autoNamed`, beside the inputs and outputs). Every other `__` key a bag holds (state an
 * earlier version of the plugin wrote: `__resourceName`, `__namingSeed`) is dropped here, never
 * handed to an implementation.
 */
import { urnIdentity } from "../../contract/unfinishedCreates";
import { boundOf, type Bound, type Operation } from "../shared/operationOptions";
import type { EngineProps, ResourceFacts } from "../shared/resourceImplementation";
import { urnParts } from "./urns";
import { fromWire, plainValue } from "./wireValues";

/** The key the plugin keeps beside a resource's inputs and outputs. */
const AUTO_NAMED = "__autoNamed";

/** One bag as the plugin opens it: plain values without `__` keys, the keys that came secret, whether the name was drawn. */
export interface WireBag {
  plain: EngineProps;
  secretKeys: readonly string[];
  autoNamed: boolean;
}

/** `wire` as an implementation takes it (module comment). */
export function openWire(wire: EngineProps): WireBag {
  // One pass: the `__` keys left out as the values are opened, not copied out of them after.
  const { props, secretKeys } = fromWire(wire, isInternal);
  const autoNamed = wire === undefined || wire === null ? undefined : plainValue(wire[AUTO_NAMED]);
  return { plain: props, secretKeys: [...secretKeys], autoNamed: autoNamed === true };
}

/** A key the plugin keeps, or an earlier version of it kept, beside a bag's properties. */
function isInternal(key: string): boolean {
  return key.startsWith("__");
}

/** `props` with what the plugin keeps in state beside them: whether the resource's name was drawn. */
export function withAutoNamed(props: EngineProps, autoNamed: boolean): EngineProps {
  return autoNamed ? { ...props, [AUTO_NAMED]: true } : props;
}

/**
 * The facts of the resource of `urn`: its name, its identity (the URN's digest), the seed its
 * auto-name is drawn from (the engine's `randomSeed`, given to `check`; else the identity), and
 * whether its name was drawn (`autoNamed`, as the bag the call is about stored it).
 */
export function resourceFacts(urn: string, autoNamed: boolean, randomSeed?: string): ResourceFacts {
  // The identity is a digest of the URN, which only creates and names use: made at its first
  // read, not for every read and diff (two digests of a refresh's every resource, three of a preview's).
  let identity: string | undefined;
  return {
    name: urnParts(urn).name,
    get identity() {
      return (identity ??= urnIdentity(urn));
    },
    get namingSeed() {
      return randomSeed ?? this.identity;
    },
    autoNamed,
  };
}

/** The engine's timeout of `operation` (seconds; 0: none) as the operation's bound, named as the engine sent it. */
export function engineTimeoutOf(operation: Operation, seconds: number): Bound | undefined {
  const ms = Math.round(seconds * 1000);
  return boundOf(operation, ms, `${ms}ms`);
}
