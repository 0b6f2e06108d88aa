/**
 * The serving layer: what every resource owes the engine's contract, written once below the two
 * doors (dynamic/dynamicProvider.ts, native/nativeProvider.ts) and above the implementations,
 * which hold only the API's behaviour. Around each implementation's calls it
 * - refuses a `replaceOnChanges` path that names no input (`check`), and applies the option to
 *   every `diff` (the TypeScript door carries it; on the plugin the engine applies it itself),
 *   then lets the implementation say what the final replacements cost (`replacing`);
 * - makes every `diff` say which inputs change (`changed`: the plugin's property-level diff);
 * - shows no secret input's value: `check`'s failures printable (printableFailures), the call's
 *   lines and warnings, and what a call throws (message, stack, a partial failure's reasons).
 * What each door must keep in state beside a partial failure's properties, and how it reads the
 * operation's timeout, are its own (partialFailure.ts `keptOnPartialFailure`,
 * operationOptions.ts `boundOf`), each written once too.
 */
import { differingKeys } from "./diffTable";
import { printableFailures, withoutSecretValues } from "./checks";
import { replaceOnChangesFailures, withReplaceOnChanges } from "./operationOptions";
import type { Call, DiffResult, EngineProps, ResourceImplementation } from "./resourceImplementation";
import { withoutSecrets } from "./secretErrors";

type Implementation = ResourceImplementation<EngineProps, EngineProps>;

/** What the serving layer reads of a resource's declaration (resourceFields.ts derives both). */
export interface ServedResource {
  readonly kind: string;
  /** Every input, as `replaceOnChanges` may name it. */
  readonly inputNames: readonly string[];
}

/** `impl` with the rules of the module comment, for the resource `resource` declares. */
export function served<I extends Implementation>(resource: ServedResource, impl: I): I {
  const inputNames = resource.inputNames;
  return {
    check: (olds, news, call) =>
      guarded(call, news, async (quiet) => {
        const result = await impl.check(olds, news, quiet);
        const failures = [
          ...result.failures,
          ...replaceOnChangesFailures(call.replaceOnChanges, inputNames, resource.kind),
        ];
        return { ...result, failures: printableFailures(failures, result.inputs, call.secretInputs) };
      }),
    diff: (id, olds, news, call) =>
      guarded(call, news, async (quiet) => {
        const result = await impl.diff(id, olds, news, quiet);
        const changed = changedOf(result, () => differingKeys(inputNames, olds, news));
        const final = { ...withReplaceOnChanges(result, changed, call.replaceOnChanges), changed };
        if (final.replaces !== undefined && final.replaces.length > 0)
          impl.replacing?.(id, olds, news, final.replaces, quiet);
        return final;
      }),
    create: (inputs, call) => guarded(call, inputs, (quiet) => impl.create(inputs, quiet)),
    read: (id, props, call) => guarded(call, props, (quiet) => impl.read(id, props, quiet)),
    update: (id, olds, news, call) => guarded(call, news, (quiet) => impl.update(id, olds, news, quiet)),
    delete: (id, props, call) => guarded(call, props, (quiet) => impl.delete(id, props, quiet)),
  } as I;
}

/**
 * The inputs a diff changes: the implementation's own list when it gives one; else, when it finds
 * a change, what it replaces and every input whose value differs (`differing`); else none.
 */
function changedOf(result: DiffResult, differing: () => readonly string[]): string[] {
  if (result.changed !== undefined) return result.changed;
  if (result.changes === false) return [];
  return [...new Set([...(result.replaces ?? []), ...differing()])];
}

/**
 * Runs `body` with a call whose lines cannot show the values of its secret inputs (among
 * `inputs`), and masks them in whatever it throws.
 */
async function guarded<T>(call: Call, inputs: EngineProps, body: (quiet: Call) => Promise<T>): Promise<T> {
  const secrets = call.secretInputs;
  const mask = (line: string) => withoutSecretValues(line, secrets, inputs);
  const quiet: Call =
    secrets.length === 0
      ? call
      : { ...call, progress: (line) => call.progress(mask(line)), warn: (line) => call.warn(mask(line)) };
  try {
    return await body(quiet);
  } catch (err) {
    throw withoutSecrets(err, secrets, inputs);
  }
}
