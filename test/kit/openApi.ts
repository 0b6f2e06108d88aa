/**
 * api/openapi.json as a validator of requests and answers, for the tests that hold the client and
 * the emulator to it. The schemas are checked by Ajv (JSON Schema 2020-12, the dialect of OpenAPI
 * 3.1, with its formats); what is OpenAPI's own (which operation a method and path are, which
 * response a status picks, parameters in the query string) is read here from the document.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

/** Where the document is. */
export const DOCUMENT_PATH = path.resolve(__dirname, "../../api/openapi.json");
const DOCUMENT_ID = "https://pulumi-vmapi.invalid/openapi.json";

type Json = Record<string, unknown>;
/** One operation object of the document, with where it is. */
export interface FoundOperation {
  method: string;
  template: string;
  operation: Json;
}

/** A request as it travels: method, target (path and query string), headers, body. */
export interface WireRequest {
  method: string;
  target: string;
  headers: Readonly<Record<string, string | undefined>>;
  /** The body's text; undefined for none. */
  body?: string;
}

/** An answer as it travels. */
export interface WireAnswer {
  method: string;
  target: string;
  status: number;
  /** The body's text; "" for none. */
  text: string;
  /** Answered by an injected fault: only the error shape is the document's to check. */
  injected?: boolean;
}

/** The document, loaded once per test file, with a compiled validator per schema it meets. */
export class OpenApiDocument {
  readonly document: Json;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: Json = JSON.parse(fs.readFileSync(DOCUMENT_PATH, "utf8")) as Json) {
    this.document = document;
    // The document itself is the schema resource every `#/components/...` resolves in; its
    // other members (openapi, info, paths) are not JSON Schema keywords, hence strictSchema off.
    this.ajv = new Ajv2020({ allErrors: true, strictSchema: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  }

  /** The operation of `method` on `pathname`; else whether the path exists under another method. */
  find(method: string, pathname: string): FoundOperation | { allowed: string[] } {
    const allowed: string[] = [];
    for (const [template, item] of Object.entries(this.paths())) {
      if (!matches(template, pathname)) continue;
      const operation = item[method.toLowerCase()] as Json | undefined;
      if (operation !== undefined) return { method, template, operation };
      allowed.push(...Object.keys(item).map((m) => m.toUpperCase()));
    }
    return { allowed };
  }

  /** What is wrong with an answer, by the document: [] when it conforms. */
  checkAnswer(answer: WireAnswer): string[] {
    const where = `${answer.method} ${answer.target} → ${answer.status}`;
    const body = parseBody(answer.text);
    if (body === INVALID) return [`${where}: the body is not JSON`];
    const pathname = pathnameOf(answer.target);
    if (pathname === undefined) {
      // The emulator refuses a target that is no URL before routing (`GET http://[ HTTP/1.1`).
      if (answer.status !== 400) return [`${where}: a target that is no URL, yet not a 400`];
      return this.schemaProblems(where, "#/components/schemas/Error400", body);
    }
    const found = this.find(answer.method, pathname);
    if (answer.injected) {
      const ok = answer.status >= 400 && answer.status <= 599;
      return [
        ...(ok ? [] : [`${where}: an injected fault outside 400–599`]),
        ...this.schemaProblems(where, "#/components/schemas/Error", body),
      ];
    }
    if (!("operation" in found)) {
      const expected = found.allowed.length > 0 ? "Error405" : "Error404";
      const status = found.allowed.length > 0 ? 405 : 404;
      if (answer.status !== status) return [`${where}: no such operation, yet not a ${status}`];
      return this.schemaProblems(where, `#/components/schemas/${expected}`, body);
    }
    const response = this.response(found.operation, answer.status);
    if (response === undefined)
      return [`${where}: status ${answer.status} is not documented for ${found.template}`];
    const media = (response.content as Json | undefined)?.["application/json"] as Json | undefined;
    if (media === undefined)
      return body === undefined ? [] : [`${where}: a body where the document has none`];
    if (body === undefined) return [`${where}: no body where the document has one`];
    return this.schemaProblems(where, this.pointerOf(media.schema as Json), body);
  }

  /** What is wrong with a request, by the document: [] when it conforms. */
  checkRequest(request: WireRequest): string[] {
    const url = new URL(request.target, "http://x");
    const where = `${request.method} ${url.pathname}`;
    const found = this.find(request.method, url.pathname);
    if (!("operation" in found)) return [`${where}: no such operation in the document`];
    const { operation } = found;
    const problems = this.parameterProblems(where, operation, url.searchParams);
    const security = (operation.security ?? this.document.security) as unknown[];
    if (security.length > 0 && !request.headers["x-api-key"]) problems.push(`${where}: no X-Api-Key`);
    return [...problems, ...this.bodyProblems(where, operation, request)];
  }

  private parameterProblems(where: string, operation: Json, query: URLSearchParams): string[] {
    const parameters = ((operation.parameters ?? []) as Json[]).filter((p) => p.in === "query");
    const problems: string[] = [];
    for (const name of new Set(query.keys())) {
      if (!parameters.some((p) => p.name === name))
        problems.push(`${where}: query parameter ${name} is not documented`);
    }
    for (const parameter of parameters) {
      const name = parameter.name as string;
      const value = query.get(name);
      if (value === null) {
        if (parameter.required === true) problems.push(`${where}: query parameter ${name} is required`);
        continue;
      }
      const schema = parameter.schema as Json;
      problems.push(...this.inlineProblems(`${where} ?${name}`, schema, fromQuery(value, schema)));
    }
    return problems;
  }

  private bodyProblems(where: string, operation: Json, request: WireRequest): string[] {
    const spec = operation.requestBody as Json | undefined;
    if (request.body === undefined || request.body === "") {
      return spec?.required === true ? [`${where}: the body is required`] : [];
    }
    if (spec === undefined) return [`${where}: a body where the document has none`];
    const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    const media = (spec.content as Json)[type] as Json | undefined;
    if (media === undefined) return [`${where}: content type ${type || "(none)"} is not documented`];
    if (type !== "application/json") return [];
    const body = parseBody(request.body);
    if (body === INVALID) return [`${where}: the body is not JSON`];
    return this.schemaProblems(where, this.pointerOf(media.schema as Json), body);
  }

  /** The response object for `status`: exact, else its range (`5XX`), each `$ref` resolved. */
  private response(operation: Json, status: number): Json | undefined {
    const responses = operation.responses as Json;
    const entry = (responses[String(status)] ?? responses[`${String(status)[0]}XX`]) as Json | undefined;
    if (entry === undefined) return undefined;
    return typeof entry.$ref === "string" ? (this.resolve(entry.$ref) as Json) : entry;
  }

  private schemaProblems(where: string, pointer: string, value: unknown): string[] {
    let validate = this.compiled.get(pointer);
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.compiled.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `${where}: ${e.instancePath || "(body)"} ${e.message}`);
  }

  private inlineProblems(where: string, schema: Json, value: unknown): string[] {
    const validate = this.ajv.compile(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${where}: ${e.instancePath || "(value)"} ${e.message}`);
  }

  /** A schema of the document as a pointer Ajv can compile: its `$ref`, or where it sits. */
  private pointerOf(schema: Json): string {
    if (typeof schema.$ref === "string") return schema.$ref;
    throw new Error("every body schema of the document is a component");
  }

  private resolve(ref: string): unknown {
    return ref
      .slice(2)
      .split("/")
      .reduce<unknown>(
        (node, key) => (node as Json)[key.replace(/~1/g, "/").replace(/~0/g, "~")],
        this.document,
      );
  }

  private paths(): Record<string, Json> {
    return this.document.paths as Record<string, Json>;
  }
}

const INVALID = Symbol("invalid JSON");

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

/** The path of a request target as the emulator reads it, or undefined when it is no URL. */
function pathnameOf(target: string): string | undefined {
  try {
    return new URL(target, "http://emulator.invalid").pathname;
  } catch {
    return undefined;
  }
}

/** Whether `pathname` is a path of `template`: each `{name}` one non-empty segment. */
function matches(template: string, pathname: string): boolean {
  const want = template.split("/");
  const got = pathname.split("/");
  return (
    want.length === got.length &&
    want.every((part, i) => (/^\{\w+\}$/.test(part) ? got[i] !== "" : part === got[i]))
  );
}

/** A query string's value as its schema reads it (the wire has strings; limit=5 is a number). */
function fromQuery(value: string, schema: Json): unknown {
  const numeric = schema.type === "integer" || schema.type === "number";
  return numeric && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}
