/**
 * The prose of api/openapi.json that no schema holds: what each tag groups and when each refusal
 * comes (the table of docs/api.md, "Errors"; `npm run openapi:check` keeps the two in step only
 * through review, so change both together).
 */
import type { ErrorStatus } from "../../src/contract/operation";

/** The document's tags, in the order a viewer lists them. */
export const TAGS = [
  { name: "machines", description: "Machines: create, operate, update, destroy, list, show, usage." },
  { name: "scripts", description: "Startup scripts: immutable; a new text is a new script." },
  { name: "users", description: "The users of the account or team." },
  { name: "networks", description: "The account's networks, one or more per region." },
  { name: "templates", description: "What machines are created from." },
  { name: "resourceDelegations", description: "Four-hour tokens for some machines." },
  {
    name: "emulator control",
    description:
      "The emulator's own endpoints under /_emulator/, for tests and demos: no key, never throttled or faulted, only for a Host that is the emulator's own (loopback) host and port. Not part of the API: a real service has none of them.",
  },
];

/** When each refusal comes, by status (`{maxBody}`, `{maxScript}`: the limits in bytes). */
export const STATUS_TEXT: Record<ErrorStatus | "5XX", string> = {
  400: "A bad or missing field or a broken rule (`validation_failed`; the message names the field and, for closed sets, the allowed values), a body that is not JSON (`malformed_json`), or a request that is not valid HTTP.",
  401: "No X-Api-Key, an unknown key, or an expired delegation token (`invalid_api_key`).",
  403: "Authenticated, but not allowed: a team member creating, a non-owner starting, a delegation token outside its machines; on a control endpoint, a Host header that is not the emulator's own loopback host and port (`forbidden`).",
  404: "An id that is unknown or belongs to another account; the two answer alike (`not_found`).",
  405: "A known path with another method (`method_not_allowed`); `Allow` names the methods.",
  408: "The request did not arrive in time (`validation_failed`).",
  409: "A duplicate (script name, email) or an operation the machine's state does not allow now; the message says what to wait for (`conflict`).",
  413: "A body over {maxBody} bytes, or a script text over {maxScript} bytes of UTF-8 (`payload_too_large`).",
  415: "A body that is not declared application/json, or multipart/form-data where an upload is taken; a control POST without `Content-Type: application/json`, even with no body (`unsupported_media_type`).",
  429: "Throttled (`rate_limited`); Retry-After says when to come back.",
  431: "A request line and headers over 16 KB (`payload_too_large`).",
  "5XX":
    "A server failure (`internal_error`, `service_unavailable`). The emulator answers one only as an injected fault (docs/emulator.md, 'Fault rules').",
};
