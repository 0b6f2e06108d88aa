/**
 * Validates an OpenAPI document with swagger-parser: against the specification's own schema
 * (3.1 here), with every $ref resolved. Plain CommonJS run by Node itself, because swagger-parser's
 * reference parser is an ES module that Node's require loads and jest's module system does not.
 *
 *   node tools/openapi/validateDocument.js [FILE]   prints "valid: FILE" or the problems, exit 0 or 1
 */
const fs = require("node:fs");
const path = require("node:path");
const SwaggerParser = require("@apidevtools/swagger-parser");

/** Resolves when `document` (a parsed object) is a valid OpenAPI document; rejects naming what is wrong. */
async function validateDocument(document) {
  // swagger-parser dereferences in place: a copy keeps the caller's document as it was.
  return SwaggerParser.validate(JSON.parse(JSON.stringify(document)));
}

if (require.main === module) {
  const file = process.argv[2] ?? path.resolve(__dirname, "../../api/openapi.json");
  validateDocument(JSON.parse(fs.readFileSync(file, "utf8"))).then(
    () => console.log(`valid: ${file}`),
    (error) => {
      console.error(`${file} is not a valid OpenAPI document: ${error.message}`);
      process.exit(1);
    },
  );
}

module.exports = { validateDocument };
