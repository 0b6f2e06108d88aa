/**
 * Step operations shared by the program runner's update, refresh and destroy: deleting a
 * resource, describing a step, and the engine's secret marking of outputs.
 */
import { Secret, cloneProps, type ProviderPlugin, type Props } from "./providerHarness";
import {
  inputsOf,
  outputsOf,
  removeResource,
  type StackState,
  type StateResource,
  type Step,
} from "./programRunnerState";

/**
 * Deletes one resource (`retainOnDelete` only forgets it); on success it leaves the state.
 * Returns false after recording the failure with `fail`.
 */
export async function deleteResource(
  plugin: ProviderPlugin,
  state: StackState,
  r: StateResource,
  steps: Step[],
  fail: (message: string) => Error,
): Promise<boolean> {
  if (r.options.protect && !r.pendingDelete) {
    steps.push({ ...stepOf("delete", r), failed: true });
    fail(`unable to delete resource "${r.urn}" as it is currently marked for protection`);
    return false;
  }
  try {
    if (!r.options.retainOnDelete) await plugin.delete(r.id, r.urn, outputsOf(r), { oldInputs: inputsOf(r) });
  } catch (err) {
    steps.push({ ...stepOf(r.pendingDelete ? "delete-replaced" : "delete", r), failed: true });
    fail(`${r.urn}: deleting failed: ${(err as Error).message}`);
    return false;
  }
  removeResource(state, r);
  steps.push(stepOf(r.pendingDelete ? "delete-replaced" : "delete", r));
  return true;
}

/** A step for an existing state entry. */
export function stepOf(op: Step["op"], r: StateResource): Step {
  const name = r.urn.split("::").slice(3).join("::");
  return { op, urn: r.urn, type: r.type, name, id: r.id };
}

/** additionalSecretOutputs: the engine marks these outputs secret. */
export function markSecret(outs: Props, keys: string[]): Props {
  const marked = cloneProps(outs);
  for (const k of keys) {
    const v = marked[k];
    if (v !== undefined && v !== null && !(v instanceof Secret)) marked[k] = new Secret(v);
  }
  return marked;
}
