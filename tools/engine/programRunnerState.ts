/**
 * The program runner's stack state (a JSON checkpoint, like the engine's snapshot) and the steps
 * it reports. Values are stored in the Pulumi wire format: secrets as signature objects holding
 * the plain value (the real engine encrypts them; see docs/program-runner.md).
 */
import type { Props } from "./providerHarness";
import { fromWire, toWire, type RegistrationOptions, type WireProps } from "./programRunnerWire";

/** One resource in the stack state. */
export interface StateResource {
  urn: string;
  type: string;
  id: string;
  /** Checked inputs (what the next check receives as olds). */
  inputs: WireProps;
  /** Outputs (what diff, update, read and delete receive as the old state). */
  outputs: WireProps;
  /** Position in the snapshot: resources are deleted in reverse order. */
  order: number;
  /** Set when create or update failed partially (ErrorResourceInitFailed): the resource exists. */
  initErrors?: string[];
  /** Set on the old half of a create-before-delete replacement until it is deleted. */
  pendingDelete?: boolean;
  /** Options seen at registration (protect, retainOnDelete, additionalSecretOutputs, ...). */
  options: RegistrationOptions;
}

/** A stack's state: pass the same object to successive runs. JSON-serializable. */
export interface StackState {
  resources: StateResource[];
  /** Stack exports of the last successful update (wire format). */
  outputs: WireProps;
  nextOrder: number;
}

/** An empty stack (`pulumi stack init`). */
export function emptyStackState(): StackState {
  return { resources: [], outputs: {}, nextOrder: 1 };
}

/** What happened (or, in preview, would happen) to one resource. */
export interface Step {
  /** `delete-replaced`: the old half of a create-before-delete replacement, deleted at the end. */
  op: "same" | "create" | "update" | "replace" | "delete" | "delete-replaced" | "refresh";
  urn: string;
  type: string;
  name: string;
  /** The resource's id after the step ("" for a planned create). */
  id?: string;
  /** replace: the id of the resource being replaced. */
  oldId?: string;
  /** replace: the properties the provider said force it. */
  replaces?: string[];
  /** refresh: whether the provider's read found the resource unchanged, changed or gone. */
  drift?: "none" | "changed" | "gone";
  /** refresh: output keys whose value differs from the state. */
  changed?: string[];
  /** The step failed (the message is in the run's error). */
  failed?: boolean;
}

/** The live (not pending-delete) resource with this URN. */
export function liveResource(state: StackState, urn: string): StateResource | undefined {
  return state.resources.find((r) => r.urn === urn && !r.pendingDelete);
}

/** Removes exactly this entry. */
export function removeResource(state: StackState, entry: StateResource): void {
  const i = state.resources.indexOf(entry);
  if (i >= 0) state.resources.splice(i, 1);
}

/** Adds or replaces the live entry for `urn`, placed last (the engine appends on step completion). */
export function putResource(
  state: StackState,
  fields: Omit<StateResource, "order" | "inputs" | "outputs"> & { inputs: Props; outputs: Props },
): StateResource {
  const old = liveResource(state, fields.urn);
  if (old) removeResource(state, old);
  const entry: StateResource = {
    ...fields,
    inputs: toWire(fields.inputs),
    outputs: toWire(fields.outputs),
    order: state.nextOrder++,
  };
  if (!entry.initErrors?.length) delete entry.initErrors;
  state.resources.push(entry);
  return entry;
}

/** Resources in reverse snapshot order (the order to delete them in). */
export function reverseOrder(resources: StateResource[]): StateResource[] {
  return [...resources].sort((a, b) => b.order - a.order);
}

/** Inputs of an entry as harness values. */
export const inputsOf = (r: StateResource): Props => fromWire(r.inputs);
/** Outputs of an entry as harness values. */
export const outputsOf = (r: StateResource): Props => fromWire(r.outputs);

/** `urn:pulumi:<stack>::<project>::<type>::<name>` (a parent other than the stack qualifies the type). */
export function resourceUrn(
  stack: string,
  project: string,
  type: string,
  name: string,
  parent: string,
): string {
  const parentType = parent ? parent.split("::")[2] : "";
  const qualified = parentType && parentType !== "pulumi:pulumi:Stack" ? `${parentType}$${type}` : type;
  return `urn:pulumi:${stack}::${project}::${qualified}::${name}`;
}
