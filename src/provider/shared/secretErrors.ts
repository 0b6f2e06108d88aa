/**
 * Errors without the program's secrets. A door hands an implementation plain values (the dynamic
 * plugin strips the secret marks before it calls; the native door unwraps them), so an error that
 * quotes an input (an API refusal, a mismatch) would print a secret in plain text. The inputs'
 * `__secretInputs` name the inputs that came secret (resourceOptions.ts, native/nativeProvider.ts).
 */
import { secretInputs, withoutSecretValues } from "./checks";

/**
 * `err` with the values of the secret `inputs` masked in what the engine prints: its message,
 * its stack (printed for a failed check, diff, read or delete) and a partial failure's reasons.
 */
export function withoutSecrets(err: unknown, inputs: unknown): unknown {
  if (!(err instanceof Error) || inputs === null || typeof inputs !== "object") return err;
  const values = inputs as Record<string, unknown>;
  const secrets = secretInputs(values);
  if (secrets.length === 0) return err;
  err.message = withoutSecretValues(err.message, secrets, values);
  if (err.stack !== undefined) err.stack = withoutSecretValues(err.stack, secrets, values);
  const failure = err as Error & { reasons?: unknown };
  if (Array.isArray(failure.reasons))
    failure.reasons = failure.reasons.map((r) =>
      typeof r === "string" ? withoutSecretValues(r, secrets, values) : r,
    );
  return err;
}
