/**
 * Pulumi names for Terraform addresses: `module.gpu[0].paperspace_machine.worker["us-east"]`
 * becomes `gpu_0_worker_us_east`. Every name is an identifier in every language Pulumi generates
 * code for (letters, digits and `_`, starting with a letter), and the names of one migration are
 * distinct: two addresses that come out the same (a machine and a script both named `web`, or
 * `a-b` beside `a_b`) are told apart by their kind, then by a number, in the order of the state.
 */
import type { AddressStep, TerraformInstance } from "./terraformState";

/** The name of one step: its name, then its key (a `count` index or a `for_each` key). */
function stepName(step: AddressStep): string {
  return step.key === undefined ? step.name : `${step.name}_${step.key}`;
}

/** Letters, digits and single `_`s, starting with a letter. */
export function identifier(text: string): string {
  const plain = text
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .replace(/_+/g, "_");
  if (plain === "") return "r";
  return /^[A-Za-z]/.test(plain) ? plain : `r_${plain}`;
}

/** The name an instance's address gives, before names are made distinct. */
export function addressName(instance: Pick<TerraformInstance, "modules" | "name" | "key">): string {
  const steps = [...instance.modules, { name: instance.name, key: instance.key }];
  return identifier(steps.map(stepName).join("_"));
}

/**
 * One distinct name for each of `instances` (in their order): the address's name; when two share
 * it, each followed by `kind(instance)`; when that is still shared, by `_2`, `_3`... in order.
 */
export function distinctNames<T extends Pick<TerraformInstance, "modules" | "name" | "key">>(
  instances: readonly T[],
  kind: (instance: T) => string,
): string[] {
  const base = instances.map(addressName);
  const count = new Map<string, number>();
  for (const name of base) count.set(name, (count.get(name) ?? 0) + 1);
  const typed = base.map((name, i) =>
    (count.get(name) ?? 0) > 1 ? identifier(`${name}_${kind(instances[i])}`) : name,
  );
  const taken = new Set<string>();
  return typed.map((name) => {
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${name}_${n}`;
    taken.add(candidate);
    return candidate;
  });
}
