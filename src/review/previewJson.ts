/**
 * The part of `pulumi preview --json` the review reads (the CLI's `PreviewDigest`, pkg/display
 * json.go). What CLI v3.274.1 emits for this package's dynamic resources, captured from the real
 * engine in test/unit/review/fixtures:
 * - `op` is `create`, `update`, `replace`, `delete` or `same` (sames only with `--show-sames`);
 *   the create and delete halves of a replacement are hidden behind the one `replace` step;
 * - `replaceReasons` names the inputs the provider said force a replacement; a machine replaced
 *   because a resource it depends on is replaced (a new script id) has none;
 * - `diffReasons` and `detailedDiff` are never filled: the dynamic-provider plugin returns no
 *   changed keys, so a change is read from the old and new inputs;
 * - secrets read `"[secret]"`, and values known only after `up` read as the unknown sentinel;
 * - a plugin's warning is a `warning` diagnostic on its resource's URN; a dynamic provider's is a
 *   line of the provider's stderr, `info#err` with no URN, reading `warning: [runtime] ...`.
 */
import { z } from "zod";
import { formatIssues } from "../contract/formatIssues";
import { kindOfType } from "../contract/typeTokens";

/** What the engine sends for a value it will know only after `up` (the SDK's `unknownValue`). */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
/** What the JSON shows in place of a secret value. */
export const SECRET_VALUE = "[secret]";

const PropertiesSchema = z.record(z.string(), z.unknown());

/** A resource's state as a preview step carries it (`apitype.ResourceV3`). */
const ResourceStateSchema = z.object({
  urn: z.string(),
  type: z.string(),
  custom: z.boolean().optional(),
  id: z.string().optional(),
  inputs: PropertiesSchema.optional(),
  outputs: PropertiesSchema.optional(),
  propertyDependencies: z.record(z.string(), z.array(z.string())).optional(),
  parent: z.string().optional(),
});
export type ResourceState = z.output<typeof ResourceStateSchema>;

const StepSchema = z.object({
  op: z.string(),
  urn: z.string(),
  oldState: ResourceStateSchema.nullish(),
  newState: ResourceStateSchema.nullish(),
  diffReasons: z.array(z.string()).nullish(),
  replaceReasons: z.array(z.string()).nullish(),
});
export type PreviewStep = z.output<typeof StepSchema>;

const PreviewSchema = z.object({
  steps: z.array(StepSchema).default([]),
  diagnostics: z
    .array(
      z.object({
        urn: z.string().optional(),
        message: z.string().optional(),
        severity: z.string().optional(),
      }),
    )
    .default([]),
  changeSummary: z.record(z.string(), z.number()).optional(),
});
/** A parsed `pulumi preview --json`. */
export type Preview = z.output<typeof PreviewSchema>;

/** A preview that cannot be read: not JSON, or not the shape `pulumi preview --json` writes. */
export class PreviewFormatError extends Error {
  /** The class name, for matching by name across copies of the package. */
  override readonly name = "PreviewFormatError";
}

/** Parses the text (or the already parsed value) of `pulumi preview --json`. */
export function parsePreview(input: string | unknown): Preview {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch {
      throw new PreviewFormatError(
        "the preview is not JSON: give the output of `pulumi preview --json` (npm run -s pulumi -- preview --json)",
      );
    }
  }
  const parsed = PreviewSchema.safeParse(value);
  if (!parsed.success) {
    throw new PreviewFormatError(
      `the preview is not the output of \`pulumi preview --json\`: ${formatIssues(parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

/** The project and stack a URN names: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function urnParts(urn: string): { stack: string; project: string; type: string; name: string } {
  const [head = "", project = "", type = "", ...rest] = urn.split("::");
  return { stack: head.replace(/^urn:pulumi:/, ""), project, type, name: rest.join("::") };
}

/** Inputs or outputs of a resource. */
export type Props = Record<string, unknown>;

/** The resource type of a step (a child resource's URN type carries its parent's). */
export function stepType(step: PreviewStep): string {
  return step.newState?.type ?? step.oldState?.type ?? urnParts(step.urn).type.split("$").pop()!;
}

/**
 * The kind of a step's resource when it is one of this package's (`Machine`, `Script`,
 * `MachineRestart`, ...), whichever route serves it: the TypeScript classes or the plugin.
 */
export function stepKind(step: PreviewStep): string | undefined {
  return kindOfType(stepType(step));
}

/** A value as the Markdown shows it. */
export function shown(value: unknown): string {
  if (value === undefined || value === null) return "unset";
  if (value === UNKNOWN_VALUE) return "(known after up)";
  if (value === SECRET_VALUE) return "(secret)";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}…` : json;
}

/** A string value as shown, or undefined when it is no string. */
export function text(value: unknown): string | undefined {
  if (value === UNKNOWN_VALUE) return "(known after up)";
  if (value === SECRET_VALUE) return "(secret)";
  return typeof value === "string" ? value : undefined;
}
