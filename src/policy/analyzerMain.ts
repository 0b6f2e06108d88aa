#!/usr/bin/env node
/**
 * `pulumi-analyzer-policy-vmapi` under node: the analyzer the CLI starts for a pack whose
 * `PulumiPolicy.yaml` says `runtime: vmapi` (plugin/pulumi-analyzer-policy-vmapi runs node on this
 * file). It serves analyzerServer.ts, on the plugin's own gRPC, with the package's version.
 */
import * as fs from "fs";
import * as path from "path";
import { serveAnalyzer } from "./analyzerServer";

/** The package's version, from its package.json. */
function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

serveAnalyzer({ version: packageVersion() }).catch((err: unknown) => {
  process.stderr.write(`pulumi-analyzer-policy-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
