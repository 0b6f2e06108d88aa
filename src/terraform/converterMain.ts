#!/usr/bin/env node
/**
 * `pulumi-converter-vmapi` under node: the converter plugin `pulumi import --from vmapi <state>`
 * starts (plugin/pulumi-converter-vmapi runs node on this file). It serves converterServer.ts,
 * on the plugin's own gRPC (nothing of the SDK loads), with the package's version.
 */
import * as fs from "fs";
import * as path from "path";
import { serveConverter } from "./converterServer";

/** The package's version, from its package.json. */
function packageVersion(): string {
  const file = path.join(__dirname, "..", "..", "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

serveConverter({ version: packageVersion() }).catch((err: unknown) => {
  process.stderr.write(`pulumi-converter-vmapi: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
