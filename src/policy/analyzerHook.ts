/**
 * The one hook the release's single executable needs to be the policy pack's analyzer too: the
 * same executable, installed as the analyzer plugin `policy-vmapi` (`pulumi-analyzer-policy-vmapi`,
 * in the release's analyzer tarball: `pulumi plugin install analyzer policy-vmapi <version> --file
 * ...`), serves the `Analyzer` service for a pack whose `PulumiPolicy.yaml` says `runtime: vmapi`.
 * The plugin's entry (provider/native/main.ts) calls `servedAsAnalyzer` before it serves; this
 * module imports only `servedAs`, and loads the pack only when the name says analyzer.
 */
import { servedAs } from "../provider/native/servedAs";
import type * as AnalyzerServerModule from "./analyzerServer";

/** The executable's name when it is the analyzer. */
export const ANALYZER_EXECUTABLE = /^pulumi-analyzer-policy-[a-z0-9-]+$/;

/**
 * Whether this process was started as the analyzer (its executable's or its script's name); when
 * it was, the analyzer is being served (its port printed on stdout), answering `version`.
 */
export function servedAsAnalyzer(
  { version }: { version: string },
  argv: readonly string[] = process.argv,
): boolean {
  return servedAs(
    ANALYZER_EXECUTABLE,
    "pulumi-analyzer-policy-vmapi",
    () => (require("./analyzerServer") as typeof AnalyzerServerModule).serveAnalyzer({ version }),
    argv,
  );
}
