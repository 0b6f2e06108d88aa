/**
 * The part of `pulumi stack export` that `vmapi-recover-pending` reads and writes: the shape of
 * the export (its resources and pending operations; everything else passes through) and how it
 * writes a secret value, encrypted or shown (`--show-secrets`). Both the pending creates
 * (pendingCreates.ts) and their accounts (stackAccounts.ts) read an export through this.
 */

/** The part of `pulumi stack export` this reads and writes; everything else passes through. */
export interface ExportedStack {
  version: number;
  deployment: {
    resources?: ExportedResource[];
    pending_operations?: Array<{ resource: ExportedResource; type: string }>;
    [key: string]: unknown;
  };
}

/** One resource as the state holds it. */
export interface ExportedResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The signature key of a secret value in an export, and its value (Pulumi's `resource.SecretSig`). */
const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The command that makes an export whose secrets can be read, for the reasons given where one is not. */
export const SHOWN_EXPORT_HINT =
  "pipe `pulumi stack export --show-secrets` into vmapi-recover-pending and name the export to repair (docs/recovery.md)";

/** Whether `value` is a secret as an export writes it (encrypted or shown). */
export function isSecretValue(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

/** Whether `value` holds a secret shown in plain text anywhere inside it. */
export function holdsShownSecret(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (isSecretValue(value) && "plaintext" in value) return true;
  return Object.values(value).some(holdsShownSecret);
}

/** `value` as the program gave it: a shown secret unwrapped; `encrypted` when it cannot be read. */
export function plainValue(value: unknown): { value: unknown } | "encrypted" {
  if (!isSecretValue(value)) return { value };
  if (typeof value.plaintext !== "string") return "encrypted";
  return { value: JSON.parse(value.plaintext) as unknown };
}
