/**
 * What is generated from the declarations and the code: the plugin's package schema, the
 * reference tables, the registry's index of the resources and the data sources' TypeScript
 * functions:
 *
 *   npm run schema:update   writes plugin/schema.json, the tables of docs/resources/*.md and
 *                           docs/data-sources.md (only between their reference markers),
 *                           src/provider/resourceDeclarations.ts and
 *                           src/provider/functions/dataSourceFunctions.ts
 *   npm run schema:check    fails, saying what differs, when a committed file is not what the
 *                           code generates (`.ci/run` runs it)
 */
import * as fs from "fs";
import * as path from "path";
import { differences } from "./differences";
import { generatedFiles, read } from "./generatedFiles";
import { REPO } from "./sourceProgram";

/** At most this many differences are listed per file. */
const SHOWN = 15;

async function main(): Promise<number> {
  const update = process.argv.includes("--update");
  const { files } = await generatedFiles();
  const stale = [...files].filter(([file, text]) => read(file) !== text);
  if (update) {
    for (const [file, text] of stale) {
      fs.mkdirSync(path.dirname(path.join(REPO, file)), { recursive: true });
      fs.writeFileSync(path.join(REPO, file), text);
      console.log(`wrote ${file}`);
    }
    if (stale.length === 0) console.log(`the generated files are current (${files.size} files)`);
    return 0;
  }
  if (stale.length === 0) {
    console.log(`the generated files are current (${files.size} files)`);
    return 0;
  }
  for (const [file, text] of stale) {
    console.error(`${file} is not what the code generates:`);
    for (const line of differences(file, read(file), text).slice(0, SHOWN)) console.error(`  ${line}`);
  }
  console.error(
    "Review the change in the code (TSDoc, types, declarations), then run `npm run schema:update`.",
  );
  return 1;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err.message);
      process.exit(1);
    },
  );
}
