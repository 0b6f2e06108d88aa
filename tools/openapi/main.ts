/**
 * The API's OpenAPI document, generated from the route tables:
 *
 *   npm run openapi:update   writes api/openapi.json
 *   npm run openapi:check    fails, naming what differs, when the committed document is not what
 *                            the code generates (`.ci/run` runs it)
 */
import * as fs from "fs";
import * as path from "path";
import * as prettier from "prettier";
import { jsonDifferences } from "../schema/differences";
import { buildDocument } from "./buildDocument";

// Plain CommonJS (its parser is an ES module that only Node's own require loads): see the file.
const { validateDocument } = require("./validateDocument.js") as {
  validateDocument(document: unknown): Promise<unknown>;
};

const REPO = path.resolve(__dirname, "../..");
/** Where the document lives, relative to the repository. */
export const DOCUMENT_FILE = "api/openapi.json";
/** At most this many differences are listed. */
const SHOWN = 15;

/** The document as `npm run openapi:update` writes it: formatted as prettier wants it. */
export async function documentText(): Promise<string> {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
    version: string;
  };
  const filepath = path.join(REPO, DOCUMENT_FILE);
  const options = (await prettier.resolveConfig(filepath)) ?? {};
  return prettier.format(JSON.stringify(buildDocument(version)), { ...options, filepath });
}

async function main(): Promise<number> {
  const expected = await documentText();
  // What the tables generate must itself be a valid document, or nothing is written.
  await validateDocument(JSON.parse(expected));
  const file = path.join(REPO, DOCUMENT_FILE);
  const actual = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : undefined;
  if (actual === expected) {
    console.log(`${DOCUMENT_FILE} is current`);
    return 0;
  }
  if (process.argv.includes("--update")) {
    fs.writeFileSync(file, expected);
    console.log(`wrote ${DOCUMENT_FILE}`);
    return 0;
  }
  console.error(`${DOCUMENT_FILE} is not what the route tables generate:`);
  const differences =
    actual === undefined ? ["missing"] : jsonDifferences(parsed(actual), JSON.parse(expected), "");
  for (const line of (differences.length > 0 ? differences : ["formatting (run prettier)"]).slice(0, SHOWN)) {
    console.error(`  ${line}`);
  }
  console.error("Review the change to the contract, then run `npm run openapi:update`.");
  return 1;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      console.error(err.stack ?? err.message);
      process.exit(1);
    },
  );
}
