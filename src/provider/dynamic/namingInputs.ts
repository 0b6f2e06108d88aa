/**
 * The program's side of auto-naming (shared/naming.ts): what a resource class registers so the
 * provider can name it the same in every preview, up and saved plan, the engine's own seed never
 * reaching a Node dynamic provider.
 */
import * as pulumi from "@pulumi/pulumi";
import { namingSeed } from "../../contract/unfinishedCreates";

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
  const parts = [pulumi.getProject(), pulumi.getStack(), type, name];
  const parentUrn = opts?.parent?.urn;
  const seed = parentUrn
    ? pulumi.output(parentUrn).apply((urn) => namingSeed([...parts, urn]))
    : namingSeed(parts);
  return { __resourceName: name, __namingSeed: seed };
}
