/**
 * The one hook the release's single executable needs to be the converter plugin too: the same
 * executable, installed under the converter's name (`pulumi-converter-vmapi`, in the release's
 * converter tarball: `pulumi plugin install converter vmapi <version> --file ...`), serves the
 * `Converter` service instead of the resource provider. The plugin's entry
 * (provider/native/main.ts) calls `servedAsConverter` before it serves; this module imports only
 * `path`, and loads the converter (converterServer.ts and what it reads states and lists the API
 * with) only when the name says converter, so the resource plugin's start loads none of it.
 */
import * as path from "path";
import type * as ConverterServerModule from "./converterServer";

/** The executable's name when it is the converter. */
export const CONVERTER_EXECUTABLE = /^pulumi-converter-[a-z0-9-]+$/;

/**
 * Whether this process was started as the converter (its executable's or its script's name); when
 * it was, the converter is being served (its port printed on stdout), answering `version`.
 */
export function servedAsConverter(
  { version }: { version: string },
  argv: readonly string[] = process.argv,
): boolean {
  const names = [process.execPath, argv[0], argv[1]].filter((a): a is string => a !== undefined);
  if (!names.some((name) => CONVERTER_EXECUTABLE.test(path.basename(name)))) return false;
  const { serveConverter } = require("./converterServer") as typeof ConverterServerModule;
  serveConverter({ version }).catch((err: unknown) => {
    process.stderr.write(`pulumi-converter-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
  return true;
}
