/**
 * What a resource class hands its provider besides the user's inputs: the resource options the
 * engine never gives a Node dynamic provider (`customTimeouts`, `replaceOnChanges`), and which
 * inputs the program made secret (the plugin answers acceptSecrets=false, so the engine strips
 * the secret marks before every call and the provider could not know otherwise).
 *
 * They travel as internal inputs, keys starting with `__`: the engine's display hides those, and
 * every provider's diff compares only its own inputs, so they never show as a change, also
 * against state written before they existed. Each is present only when it says something, so a
 * program that uses none of them registers exactly the inputs it did before.
 */
import * as pulumi from "@pulumi/pulumi";
import type { TimeoutInputs } from "./internalInputs";

/**
 * The internal inputs for `props` (the inputs as the class registers them) and `opts`: only the
 * ones that apply, so an option left out adds nothing. A `get` (opts.id) reads and never
 * operates: it gets none.
 */
export function optionInputs(
  props: Record<string, unknown>,
  opts: pulumi.CustomResourceOptions | undefined,
): Record<string, unknown> {
  if (opts?.id !== undefined) return {};
  const inputs: Record<string, unknown> = {};
  const timeouts = timeoutInputs(opts?.customTimeouts);
  if (timeouts !== undefined) inputs.__customTimeouts = timeouts;
  if (opts?.replaceOnChanges !== undefined && opts.replaceOnChanges.length > 0)
    inputs.__replaceOnChanges = [...opts.replaceOnChanges];
  const secrets = secretInputNames(props);
  if (secrets !== undefined) inputs.__secretInputs = secrets;
  return inputs;
}

function timeoutInputs(timeouts: pulumi.CustomTimeouts | undefined): TimeoutInputs | undefined {
  if (timeouts === undefined) return undefined;
  const given = Object.entries({ create: timeouts.create, update: timeouts.update, delete: timeouts.delete })
    // The plugin cannot encode undefined, and an empty string means "no timeout" to the engine too.
    .filter(([, value]) => value !== undefined && value !== "");
  return given.length > 0 ? (Object.fromEntries(given) as TimeoutInputs) : undefined;
}

/**
 * The names of the inputs whose values are secret Outputs (or hold one), resolved once each value
 * is; undefined when none is, so the input is then left out. Plain values cannot be secret and
 * are not looked at (a preview of 200 machines pays for none of this).
 */
function secretInputNames(props: Record<string, unknown>): pulumi.Output<string[] | undefined> | undefined {
  const candidates = Object.entries(props).filter(
    ([key, value]) => !key.startsWith("__") && value !== null && typeof value === "object",
  );
  if (candidates.length === 0) return undefined;
  const names = Promise.all(
    candidates.map(([key, value]) =>
      pulumi.isSecret(pulumi.output(value)).then((secret) => (secret ? key : undefined)),
    ),
  ).then((found) => {
    const secret = found.filter((name): name is string => name !== undefined);
    return secret.length > 0 ? secret.sort() : undefined;
  });
  return pulumi.output(names);
}
