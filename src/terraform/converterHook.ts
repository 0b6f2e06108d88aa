/**
 * The one hook the release's single executable needs to be the converter plugin too: the same
 * executable, installed under the converter's name (`pulumi-converter-vmapi`, in the release's
 * converter tarball: `pulumi plugin install converter vmapi <version> --file ...`), serves the
 * `Converter` service instead of the resource provider. The plugin's entry
 * (provider/native/main.ts) calls `servedAsConverter` before it serves; this module imports only
 * provider/native/servedAs.ts, and loads the converter (converterServer.ts and what it reads
 * states and lists the API with) only when the name says converter, so the resource plugin's
 * start loads none of it.
 */
import { servedAs } from "../provider/native/servedAs";
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
  return servedAs(
    CONVERTER_EXECUTABLE,
    "pulumi-converter-vmapi",
    () => (require("./converterServer") as typeof ConverterServerModule).serveConverter({ version }),
    argv,
  );
}
