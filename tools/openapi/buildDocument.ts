/**
 * api/openapi.json, built from the route tables: the API's (src/contract/operations.ts) and the
 * emulator's control endpoints (src/emulator/http/controlOperations.ts). Nothing in the document
 * is written by hand: paths, parameters and bodies come from the tables' zod schemas, the
 * refusals from each operation's list and ERROR_STATUSES.
 */
import { z } from "zod";
import { API_KEY_HEADER, DEFAULT_BASE_URL, SCRIPT_MAX_BYTES } from "../../src/contract/constants";
import { pathParameters, type ErrorStatus, type Operation } from "../../src/contract/operation";
import { OPERATIONS } from "../../src/contract/operations";
import { CONTROL_OPERATIONS } from "../../src/emulator/http/controlOperations";
import { MAX_BODY_BYTES } from "../../src/emulator/http/requestBody";
import { bare, Components, errorComponent, errorStatuses } from "./components";
import { TAGS, STATUS_TEXT } from "./texts";

/** Every operation the document lists: the API's, then the emulator's control endpoints. */
export function documentedOperations(): Operation[] {
  return [...Object.values(OPERATIONS), ...Object.values(CONTROL_OPERATIONS)];
}

/** The OpenAPI 3.1 document of the API, as a JSON value. */
export function buildDocument(version: string): Record<string, unknown> {
  const operations = documentedOperations();
  const components = new Components(operations);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method.toLowerCase()] = operationObject(operation, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "VM API",
      version,
      description:
        "The legacy Core machine API as pulumi-vmapi speaks and its emulator serves it: machines, startup scripts, users, networks, templates, resource delegations. Generated from the zod schemas of src/contract by `npm run openapi:update`; docs/api.md says the rest.",
    },
    servers: [
      { url: DEFAULT_BASE_URL, description: "The retired hosted service" },
      {
        url: "http://127.0.0.1:{port}",
        description: "An emulator on this machine (`npm run emulator`, `npx vmapi-emulator`)",
        variables: { port: { default: "8080" } },
      },
    ],
    tags: TAGS,
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: API_KEY_HEADER,
          description: "An account's API key, or a resource delegation's accessTokenId.",
        },
      },
      schemas: components.schemas(),
      responses: errorResponses(),
    },
  };
}

function operationObject(operation: Operation, components: Components): Record<string, unknown> {
  const answer =
    operation.answer.status === 204
      ? { description: operation.answer.description }
      : {
          description: operation.answer.description,
          content: { "application/json": { schema: components.answerRef(operation.answer.schema) } },
          ...(operation.links === undefined ? {} : { links: operation.links }),
        };
  const refusals = refusalsOf(operation).map((status) => [
    String(status),
    { $ref: `#/components/responses/${errorComponent(status)}` },
  ]);
  return {
    operationId: operation.id,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description === undefined ? {} : { description: operation.description }),
    ...(operation.open ? { security: [] } : {}),
    parameters: [...pathParameterObjects(operation), ...queryParameterObjects(operation)],
    ...(operation.body === undefined ? {} : { requestBody: requestBodyObject(operation, components) }),
    responses: Object.fromEntries([[String(operation.answer.status), answer], ...refusals]),
  };
}

/**
 * Every refusal of an operation: those of every request (a malformed request, a body over the
 * limit, a head over 16 KB, a slow request), those of every API call (the key, the rate limit),
 * those of every control call (a foreign Host), a body that is not JSON on a POST, the
 * operation's own, and server failures.
 */
function refusalsOf(operation: Operation): (ErrorStatus | "5XX")[] {
  const statuses = new Set<ErrorStatus>([400, 408, 413, 431, ...operation.refusals]);
  // An open operation (a control endpoint) asks for no key, but refuses a Host not the emulator's own.
  if (operation.open) statuses.add(403);
  else [401, 429].forEach((s) => statuses.add(s as ErrorStatus));
  if (operation.method === "POST") statuses.add(415);
  return [...[...statuses].sort((a, b) => a - b), "5XX"];
}

function pathParameterObjects(operation: Operation): Record<string, unknown>[] {
  return pathParameters(operation.path).map((name) => ({
    name,
    in: "path",
    required: true,
    description: "An id; percent-encoded.",
    schema: { type: "string", minLength: 1 },
  }));
}

function queryParameterObjects(operation: Operation): Record<string, unknown>[] {
  if (operation.query === undefined) return [];
  const object = z.toJSONSchema(operation.query, { target: "draft-2020-12", io: "input" }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(object.properties).map(([name, schema]) => {
    const { description, ...rest } = bare(schema);
    // With an upload the parameters travel in the query string; with a JSON body they are unread.
    const required = operation.upload === undefined && (object.required ?? []).includes(name);
    const uploadNote =
      operation.upload === undefined
        ? undefined
        : `With a multipart upload only${(object.required ?? []).includes(name) ? " (required then)" : ""}.`;
    const text = [uploadNote, description].filter((t) => t !== undefined).join(" ");
    return {
      name,
      in: "query",
      required,
      ...(text === "" ? {} : { description: text }),
      schema: rest,
    };
  });
}

function requestBodyObject(operation: Operation, components: Components): Record<string, unknown> {
  const body = operation.body!;
  const content: Record<string, unknown> = {
    "application/json": { schema: components.requestRef(body.schema) },
  };
  if (operation.upload !== undefined) {
    const { part, description } = operation.upload;
    content["multipart/form-data"] = {
      schema: {
        type: "object",
        properties: { [part]: { type: "string", contentMediaType: "application/octet-stream", description } },
        required: [part],
        additionalProperties: false,
      },
    };
  }
  return { required: body.required, content };
}

/** `components.responses`: one refusal per status, with its body and, where sent, its headers. */
function errorResponses(): Record<string, unknown> {
  const retryAfter = {
    "Retry-After": {
      description: "Seconds to wait before trying again.",
      schema: { type: "string", pattern: "^[0-9]+$" },
    },
  };
  const entries = [...errorStatuses(), "5XX" as const].map((status) => [
    errorComponent(status),
    {
      description: STATUS_TEXT[status]
        .replace("{maxBody}", String(MAX_BODY_BYTES))
        .replace("{maxScript}", String(SCRIPT_MAX_BYTES)),
      ...(status === 429 || status === "5XX" ? { headers: retryAfter } : {}),
      content: { "application/json": { schema: { $ref: `#/components/schemas/${errorComponent(status)}` } } },
    },
  ]);
  return Object.fromEntries(entries);
}
