/**
 * api/openapi.json itself: a valid OpenAPI 3.1 document (swagger-parser, against the
 * specification's schema, with every $ref resolved; run by Node in a child process, since its
 * reference parser is an ES module jest cannot load), schemas Ajv compiles in strict mode, and
 * exactly the routes the emulator serves. `npm run openapi:check` holds it to the route tables.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { OPERATIONS } from "../../../src/contract/operations";
import { CONTROL_ROUTES } from "../../../src/emulator/http/control";
import { API_ROUTES } from "../../../src/emulator/http/routes";
import { DOCUMENT_PATH } from "../../kit/openApi";
import { useTempDirs } from "../../kit/tempDirs";

type Json = Record<string, unknown>;
const read = (): Json => JSON.parse(fs.readFileSync(DOCUMENT_PATH, "utf8")) as Json;
const VALIDATOR = path.resolve(__dirname, "../../../tools/openapi/validateDocument.js");

/** tools/openapi/validateDocument.js on `file`: its exit status and what it printed. */
function validate(file: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [VALIDATOR, file], { encoding: "utf8", timeout: 60_000 });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("api/openapi.json", () => {
  // The broken documents' folders: removed after each test, whether its expects held or not.
  const tempDir = useTempDirs();

  it("validate: the document → a valid OpenAPI 3.1.0 document, every $ref resolved", () => {
    expect(read().openapi).toBe("3.1.0");
    expect(validate(DOCUMENT_PATH)).toEqual({ status: 0, output: `valid: ${DOCUMENT_PATH}\n` });
  });

  it.each([
    [
      "a response without its description",
      (answer: Json) => delete answer.description,
      /200 must have required property 'description'/,
    ],
    [
      "a $ref to no component",
      (answer: Json) =>
        (answer.content = { "application/json": { schema: { $ref: "#/components/schemas/Nope" } } }),
      /Missing \$ref pointer "#\/components\/schemas\/Nope"/,
    ],
  ])("validate: a broken document (%s) → refused, naming it", (_, breakIt, problem) => {
    const broken = read();
    const paths = broken.paths as Record<string, Record<string, { responses: Record<string, Json> }>>;
    breakIt(paths["/machines/getMachines"].get.responses["200"]);
    const file = path.join(tempDir("openapi-"), "broken.json");
    fs.writeFileSync(file, JSON.stringify(broken));
    const { status, output } = validate(file);
    expect(status).toBe(1);
    expect(output).toMatch(/is not a valid OpenAPI document: /);
    expect(output).toMatch(problem);
  });

  it("schemas: every component → compiles as strict JSON Schema 2020-12", () => {
    const { components } = read() as { components: { schemas: Record<string, Json> } };
    // Strict mode refuses unknown keywords and contradictions; refs point into the same set.
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv);
    const text = JSON.stringify(components.schemas).replace(/#\/components\/schemas\//g, "defs.json#/$defs/");
    ajv.addSchema({ $id: "defs.json", $defs: JSON.parse(text) as Json });
    const names = Object.keys(components.schemas);
    for (const name of names) expect(() => ajv.getSchema(`defs.json#/$defs/${name}`)).not.toThrow();
    expect(names).toEqual(expect.arrayContaining(["Machine", "Script", "Error404", "ServerError"]));
  });

  it("routes: the document's operations → exactly the routes the emulator serves", () => {
    const paths = read().paths as Record<string, Json>;
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = [...API_ROUTES, ...CONTROL_ROUTES].map((r) => `${r.method} ${r.template}`);
    expect(documented.sort()).toEqual(served.sort());
  });

  it("route table: each operation's key → its id, and the control endpoints → tagged apart, without a key", () => {
    for (const [key, operation] of Object.entries(OPERATIONS)) expect(operation.id).toBe(key);
    const paths = read().paths as Record<string, Record<string, { tags: string[]; security?: unknown[] }>>;
    const control = Object.entries(paths).filter(([path]) => path.startsWith("/_emulator/"));
    expect(control.length).toBeGreaterThan(5);
    for (const [, item] of control) {
      for (const operation of Object.values(item))
        expect(operation).toMatchObject({ tags: ["emulator control"], security: [] });
    }
    const api = Object.entries(paths).filter(([path]) => !path.startsWith("/_emulator/"));
    for (const [, item] of api)
      for (const operation of Object.values(item)) expect(operation.security).toBeUndefined();
  });

  it("operation ids: unique across the API and the control endpoints; every link names exactly one", () => {
    const paths = read().paths as Record<string, Record<string, Json>>;
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    const ids = operations.map((operation) => operation.operationId as string);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const linked = JSON.stringify(read()).match(/"operationId":"[^"]+"/g) ?? [];
    const targets = [...new Set(linked.map((l) => l.slice('"operationId":"'.length, -1)))];
    expect(targets.filter((id) => ids.filter((known) => known === id).length !== 1)).toEqual([]);
  });

  it("security: the X-Api-Key scheme → an apiKey in the header, required by default", () => {
    const document = read() as { security: unknown; components: { securitySchemes: Json } };
    expect(document.components.securitySchemes.apiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-Api-Key",
    });
    expect(document.security).toEqual([{ apiKey: [] }]);
  });
});
