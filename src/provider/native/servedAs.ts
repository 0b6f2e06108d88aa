/**
 * The release's one executable is the resource plugin, the Terraform converter and the policy
 * pack's analyzer, by the name it is installed under (terraform/converterHook.ts,
 * policy/analyzerHook.ts). This module tells the name and serves the other plugin in its place; it
 * imports only `path`, so the resource plugin's start loads nothing more for it.
 */
import * as path from "path";

/**
 * Serves with `serve` (loaded only then) when this process was started under a name `name`
 * matches (its executable's or its script's, as the npm launchers run it under node); whether it
 * did. A failure to serve is written to stderr under `label` and ends the process.
 */
export function servedAs(
  name: RegExp,
  label: string,
  serve: () => Promise<unknown>,
  argv: readonly string[] = process.argv,
): boolean {
  const names = [process.execPath, argv[0], argv[1]].filter((a): a is string => a !== undefined);
  if (!names.some((file) => name.test(path.basename(file)))) return false;
  serve().catch((err: unknown) => {
    process.stderr.write(`${label}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
  return true;
}
