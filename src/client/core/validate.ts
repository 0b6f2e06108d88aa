/**
 * Input checks before sending, with the shared request schemas: a refusal is a `ValidationError`
 * naming the field and the allowed values, and no request leaves the client.
 */
import type { z } from "zod";
import { ValidationError } from "./errors";
import { formatIssues } from "../../contract/formatIssues";
import { operationPath, type Operation } from "../../contract/operation";

/** Parses `input` with `schema` or throws `ValidationError` (the message says what was refused). */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw new ValidationError(`${what}: ${formatIssues(result.error.issues)}`);
  return result.data;
}

/** Checks an id given by the caller; `name` is the field named in the refusal. */
export function requireId(id: unknown, name: string): string {
  if (typeof id !== "string" || id.trim() === "" || id === "." || id === "..") {
    throw new ValidationError(`${name} must be a non-empty id (got ${JSON.stringify(id) ?? String(id)})`);
  }
  return id;
}

/**
 * The path of an operation on one id (`/machines/{machineId}/start`), checked and encoded, so an
 * id can never change the route it travels in.
 */
export function pathWithId(operation: Operation, name: string, id: unknown): string {
  return operationPath(operation, { [name]: requireId(id, name) });
}
