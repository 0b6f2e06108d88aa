/**
 * The state file (`--state-file`): the whole store, the id random state and the manual clock's
 * now, written atomically (temp file, fsync, rename, fsync of the folder) before the answer of
 * every request that changed something, so an answered request survives even `kill -9`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { formatIssues } from "../../contract/formatIssues";
import type { StoreData } from "./records";
import { jsonSyntaxReason } from "../../contract/formatIssues";

/** What the state file holds. */
export interface PersistedState {
  version: 1;
  /** The manual clock's now (epoch ms); null under the real clock. */
  clockNow: number | null;
  /** The id random source's state. */
  random: number;
  data: StoreData;
}

const PersistedStateSchema = z.object({
  version: z.literal(1),
  clockNow: z.number().nullable(),
  random: z.number().int(),
  data: z
    .object({
      keys: z.object({ individual: z.string(), teamAdmin: z.string(), teamMember: z.string() }),
      machines: z.array(z.unknown()),
      scripts: z.array(z.unknown()),
      counters: z.object({ internalId: z.number(), delegationId: z.number(), staticIp: z.number() }),
    })
    .passthrough(),
});

/** A state file that cannot be used: unreadable, not JSON, or not an emulator state file. */
export class StateFileError extends Error {
  constructor(
    /** The state file's path. */
    readonly file: string,
    /** What is wrong with it. */
    readonly reason: string,
  ) {
    super(`state file ${file}: ${reason}`);
    this.name = "StateFileError";
  }
}

/** Reads the state file; undefined when it does not exist; a StateFileError saying why it is unusable. */
export function loadState(file: string): PersistedState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new StateFileError(file, `cannot read the file (${code ?? "error"})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `not valid JSON (${jsonSyntaxReason(error)})`);
  }
  const parsed = PersistedStateSchema.safeParse(json);
  if (!parsed.success) {
    throw new StateFileError(file, `not an emulator state file (${formatIssues(parsed.error.issues)})`);
  }
  return parsed.data as unknown as PersistedState;
}

/** Writes the state file atomically: a reader (or a restart) sees the old or the new file, never half. */
export function saveState(file: string, state: PersistedState): void {
  const dir = path.dirname(path.resolve(file));
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, "w", 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(state));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  syncDirectory(dir);
}

/** Makes the rename itself durable; not every platform allows opening a folder, which is fine. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Best effort: Windows cannot fsync a directory.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
