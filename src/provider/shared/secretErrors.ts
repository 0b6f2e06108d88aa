/**
 * Errors without the program's secrets. A door hands an implementation plain values (the dynamic
 * plugin strips the secret marks before it calls; the native door unwraps them), so an error that
 * quotes an input (an API refusal, a mismatch) would print a secret in plain text. Each door says
 * which inputs came secret (the call's `secretInputs`), and the serving layer (serving.ts) masks
 * what escapes an implementation here.
 */
import { withoutSecretValues } from "./checks";

/**
 * `err` with the values of the `secrets` among `inputs` masked in what the engine prints: its
 * message, its stack (printed for a failed check, diff, read or delete) and a partial failure's
 * reasons.
 */
export function withoutSecrets(
  err: unknown,
  secrets: readonly string[],
  inputs: Record<string, unknown>,
): unknown {
  if (!(err instanceof Error) || secrets.length === 0) return err;
  err.message = withoutSecretValues(err.message, secrets, inputs);
  if (err.stack !== undefined) err.stack = withoutSecretValues(err.stack, secrets, inputs);
  const failure = err as Error & { reasons?: unknown };
  if (Array.isArray(failure.reasons))
    failure.reasons = failure.reasons.map((r) =>
      typeof r === "string" ? withoutSecretValues(r, secrets, inputs) : r,
    );
  return err;
}
