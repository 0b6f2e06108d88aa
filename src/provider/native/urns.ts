/**
 * What a plugin learns from a resource's URN, `urn:pulumi:<stack>::<project>::<type>::<name>`
 * (a child's type is its parents' types joined by `$`, then its own): its parts. The resource's
 * identity, which names its unfinished creates and stays the same across deployments of the
 * same resource, is the URN's digest (`urnIdentity`, contract/unfinishedCreates.ts).
 */

/** The parts of a URN. */
export interface UrnParts {
  stack: string;
  project: string;
  /** The resource's own type, e.g. `vmapi:index:Machine`. */
  type: string;
  /** The types of its parents, outermost first. */
  parentTypes: string[];
  name: string;
}

/** The parts of `urn`; throws on a string that is not one. */
export function urnParts(urn: string): UrnParts {
  const match = /^urn:pulumi:(.*?)::(.*?)::(.*?)::(.*)$/s.exec(urn);
  if (!match) throw new Error(`not a resource URN: ${JSON.stringify(urn)}`);
  const [, stack, project, types, name] = match;
  const chain = types.split("$");
  return { stack, project, type: chain[chain.length - 1], parentTypes: chain.slice(0, -1), name };
}
