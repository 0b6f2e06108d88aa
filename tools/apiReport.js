#!/usr/bin/env node
/**
 * The API report: api/*.api.md, one per entry point (the root, `pulumi-vmapi/client`,
 * `pulumi-vmapi/emulator`), written by @microsoft/api-extractor from the compiled declarations.
 *
 *   npm run api:check    fails when the public surface differs from the checked-in reports
 *   npm run api:update   rewrites the reports after a deliberate change (commit them)
 *
 * `.ci/run` runs the check, so any change to the surface shows in review as a diff of api/.
 */
const { execFileSync } = require("node:child_process");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
const update = process.argv.includes("--update");
execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
const { Extractor, ExtractorConfig } = require("@microsoft/api-extractor");
let failed = false;
for (const entry of ["root", "client", "emulator"]) {
  const config = ExtractorConfig.loadFileAndPrepare(path.join(root, "api", `extractor-${entry}.json`));
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  if (result.apiReportChanged && !update) {
    console.error(
      `api/${path.basename(config.reportFilePath)}: the public surface changed; review it, then npm run api:update`,
    );
    failed = true;
  } else if (!result.succeeded && !result.apiReportChanged) {
    console.error(`api-extractor failed on ${entry} (${result.errorCount} errors)`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
