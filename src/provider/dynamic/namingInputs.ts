/**
 * The program's side of auto-naming (shared/naming.ts): what a resource class registers so the
 * provider can name it the same in every preview, up and saved plan, the engine's own seed never
 * reaching a Node dynamic provider.
 */
import type * as pulumi from "@pulumi/pulumi";
import { namingSeed } from "../shared/naming";

/**
 * Program side: the naming inputs of a resource, `__resourceName` and `__namingSeed`. The seed
 * is a digest of the project, the stack, the type, the parent's URN (when given: two components
 * may each hold a child of the same name) and the resource name, so two stacks never share a name.
 */
export function namingInputs(
  name: string,
  type: string,
  opts: pulumi.ResourceOptions | undefined,
): { __resourceName: string; __namingSeed: pulumi.Input<string> } {
  // Required here, not at the top: the plugin loads this module for `check` and must not load a
  // second copy of the SDK next to the one that hosts it.
  const sdk = require("@pulumi/pulumi") as typeof pulumi;
  const parts = [sdk.getProject(), sdk.getStack(), type, name];
  const parentUrn = opts?.parent?.urn;
  const seed = parentUrn
    ? sdk.output(parentUrn).apply((urn) => namingSeed([...parts, urn]))
    : namingSeed(parts);
  return { __resourceName: name, __namingSeed: seed };
}
