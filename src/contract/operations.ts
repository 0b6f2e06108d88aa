/**
 * The API's route table (docs/api.md, "Endpoints"), written once: every operation's method, path,
 * query string, body and answer with the schemas that check them. The emulator's router serves
 * these routes, the client sends to them, and `npm run openapi:update` writes api/openapi.json
 * from them.
 */
import { z } from "zod";
import {
  MACHINE_FILTER_FIELDS,
  NETWORK_FILTER_FIELDS,
  SCRIPT_FILTER_FIELDS,
  TEMPLATE_FILTER_FIELDS,
  USER_FILTER_FIELDS,
} from "./listFilters";
import type { Operation } from "./operation";
import {
  AvailabilityQuerySchema,
  CreateDelegationRequestSchema,
  CreateMachineRequestSchema,
  CreateScriptRequestSchema,
  CreateScriptUploadQuerySchema,
  DestroyMachineQuerySchema,
  DestroyMachineRequestSchema,
  PagingQuerySchema,
  SetMachineAccessRequestSchema,
  UpdateMachineRequestSchema,
  UtilizationQuerySchema,
} from "./requestSchemas";
import {
  AvailabilitySchema,
  MachineListSchema,
  MachineSchema,
  NetworkListSchema,
  ResourceDelegationSchema,
  ScriptListSchema,
  ScriptSchema,
  ScriptTextSchema,
  TemplateListSchema,
  UserListSchema,
  UtilizationSchema,
} from "./schemas";

/** The equality filters of a list as query parameters: each value a string, `"null"` for null. */
function filterQuery<F extends string>(fields: readonly F[]) {
  const filter = z
    .string()
    .optional()
    .describe('Equality filter; booleans and numbers written out, "null" matches a null field.');
  return z.object(Object.fromEntries(fields.map((field) => [field, filter])) as Record<F, typeof filter>);
}

/** The query of a show or a text: one required, non-empty id. */
const MachineIdQuerySchema = z.object({ machineId: z.string().min(1) });
const ScriptIdQuerySchema = z.object({ scriptId: z.string().min(1) });

/** Links from an answer's `id` to the operations that take it as `name`, in the path or the query. */
function idLinks(name: string, operationIds: readonly string[]) {
  return Object.fromEntries(
    operationIds.map((operationId) => [
      operationId,
      { operationId, parameters: { [name]: "$response.body#/id" } },
    ]),
  );
}

const done = (description: string) => ({ status: 204, description }) as const;
const ok = <S extends z.ZodType>(schema: S, description: string) =>
  ({ status: 200, schema, description }) as const;

/** Every operation of the API, by id (its `operationId` in api/openapi.json). */
export const OPERATIONS = {
  createMachine: {
    id: "createMachine",
    method: "POST",
    path: "/machines/createSingleMachinePublic",
    tag: "machines",
    summary: "Create a machine (only account administrators)",
    description:
      "Beyond the body's schema: assignPublicIp and dynamicPublicIp exclude each other; userId excludes the new-user fields (email, password, firstName, lastName), which come all four or not at all; markSnapshotAsRestorePoint needs takeInitialSnapshot and restorePointFrequency; a Windows template cannot create C1–C10, an Ubuntu template not Air, Standard, Pro or Advanced; the template, network and script must be visible to the caller (404 otherwise), the network in the machine's region. Each refusal is a 400 naming the field.",
    body: { schema: CreateMachineRequestSchema, required: true },
    answer: ok(MachineSchema, "The new machine, `provisioning`, its hardware and addresses null."),
    links: idLinks("machineId", [
      "getMachinePublic",
      "getUtilization",
      "startMachine",
      "stopMachine",
      "restartMachine",
      "updateMachine",
      "setMachineAccess",
      "destroyMachine",
    ]),
    refusals: [403, 404, 409],
  },
  startMachine: {
    id: "startMachine",
    method: "POST",
    path: "/machines/{machineId}/start",
    tag: "machines",
    summary: "Start a machine (owner only); a no-op when it runs",
    answer: done("Started, or already running."),
    refusals: [403, 404, 409],
  },
  stopMachine: {
    id: "stopMachine",
    method: "POST",
    path: "/machines/{machineId}/stop",
    tag: "machines",
    summary: "Stop a machine (owner only); a no-op when it is off or stopping",
    answer: done("Stopping, or already off."),
    refusals: [403, 404, 409],
  },
  restartMachine: {
    id: "restartMachine",
    method: "POST",
    path: "/machines/{machineId}/restart",
    tag: "machines",
    summary: "Restart a running machine (owner only)",
    answer: done("Restarting."),
    refusals: [403, 404, 409],
  },
  destroyMachine: {
    id: "destroyMachine",
    method: "POST",
    path: "/machines/{machineId}/destroyMachine",
    tag: "machines",
    summary: "Destroy a machine (owner, or the team admin)",
    description:
      "releasePublicIp travels in the body or, as some clients send it, in the query string; the body wins. No body at all is valid.",
    query: DestroyMachineQuerySchema,
    body: { schema: DestroyMachineRequestSchema, required: false },
    answer: done("Destroyed: 404 for every call from now on."),
    refusals: [403, 404],
  },
  updateMachine: {
    id: "updateMachine",
    method: "POST",
    path: "/machines/{machineId}/updateMachinePublic",
    tag: "machines",
    summary: "Change a machine's name and settings in place",
    body: { schema: UpdateMachineRequestSchema, required: false },
    answer: done("Updated."),
    refusals: [403, 404],
  },
  setMachineAccess: {
    id: "setMachineAccess",
    method: "POST",
    path: "/machines/{machineId}/setMachineAccess",
    tag: "machines",
    summary: "Grant or revoke a user's access to a machine",
    description: "A machineId repeated in the body must be the path's.",
    body: { schema: SetMachineAccessRequestSchema, required: true },
    answer: done("Granted or revoked."),
    refusals: [403, 404],
  },
  getMachines: {
    id: "getMachines",
    method: "GET",
    path: "/machines/getMachines",
    tag: "machines",
    summary: "List the account's machines, a page at a time",
    description:
      "Machines in creation order; `skip` in multiples of `limit` gives pages. A query parameter the list does not have is refused with 400 naming the allowed ones.",
    query: PagingQuerySchema.extend(filterQuery(MACHINE_FILTER_FIELDS).shape),
    answer: ok(MachineListSchema, "The page, each machine with `internalId`."),
    refusals: [403],
  },
  getMachinePublic: {
    id: "getMachinePublic",
    method: "GET",
    path: "/machines/getMachinePublic",
    tag: "machines",
    summary: "Show one machine with its events",
    query: MachineIdQuerySchema,
    answer: ok(MachineSchema, "The machine with `events`, newest first."),
    refusals: [403, 404],
  },
  getUtilization: {
    id: "getUtilization",
    method: "GET",
    path: "/machines/getUtilization",
    tag: "machines",
    summary: "A machine's usage and rates in a billing month",
    query: UtilizationQuerySchema,
    answer: ok(UtilizationSchema, "Seconds used and rates."),
    refusals: [403, 404],
  },
  getAvailability: {
    id: "getAvailability",
    method: "GET",
    path: "/machines/getAvailability",
    tag: "machines",
    summary: "Whether a dedicated GPU type can be requested in a region now",
    query: AvailabilityQuerySchema,
    answer: ok(AvailabilitySchema, "`{ available }`."),
    refusals: [403],
  },
  createScript: {
    id: "createScript",
    method: "POST",
    path: "/scripts/createScript",
    tag: "scripts",
    summary: "Upload a startup script (only account administrators)",
    description:
      "The text travels as `scriptText` in a JSON body, or as a multipart/form-data upload whose one part `file` is the text while the other parameters travel in the query string (with a JSON body, the query string must not carry them: 400). The text is at most 16 KB of UTF-8 (413 beyond). A second script of the same name for the same owner is a 409.",
    query: CreateScriptUploadQuerySchema,
    body: { schema: CreateScriptRequestSchema, required: true },
    upload: { part: "file", description: "The script's text (UTF-8, at most 16 KB)." },
    answer: ok(ScriptSchema, "The script, without its text."),
    links: idLinks("scriptId", ["getScript", "getScriptText", "destroyScript"]),
    refusals: [403, 404, 409],
  },
  destroyScript: {
    id: "destroyScript",
    method: "POST",
    path: "/scripts/{scriptId}/destroy",
    tag: "scripts",
    summary: "Destroy a script, detaching it from every machine",
    answer: done("Destroyed."),
    refusals: [403, 404],
  },
  getScripts: {
    id: "getScripts",
    method: "GET",
    path: "/scripts/getScripts",
    tag: "scripts",
    summary: "List the account's scripts",
    query: filterQuery(SCRIPT_FILTER_FIELDS),
    answer: ok(ScriptListSchema, "The scripts, without `machines`."),
    refusals: [403],
  },
  getScript: {
    id: "getScript",
    method: "GET",
    path: "/scripts/getScript",
    tag: "scripts",
    summary: "Show one script with the machines it is attached to",
    query: ScriptIdQuerySchema,
    answer: ok(ScriptSchema, "The script with `machines`, without its text."),
    refusals: [403, 404],
  },
  getScriptText: {
    id: "getScriptText",
    method: "GET",
    path: "/scripts/getScriptText",
    tag: "scripts",
    summary: "A script's text",
    query: ScriptIdQuerySchema,
    answer: ok(ScriptTextSchema, "The text, as one JSON string."),
    refusals: [403, 404],
  },
  getUsers: {
    id: "getUsers",
    method: "GET",
    path: "/users/getUsers",
    tag: "users",
    summary: "List the users of the account or team",
    query: filterQuery(USER_FILTER_FIELDS),
    answer: ok(UserListSchema, "The users."),
    refusals: [403],
  },
  getNetworks: {
    id: "getNetworks",
    method: "GET",
    path: "/networks/getNetworks",
    tag: "networks",
    summary: "List the account's networks",
    query: filterQuery(NETWORK_FILTER_FIELDS),
    answer: ok(NetworkListSchema, "The networks."),
    refusals: [403],
  },
  getTemplates: {
    id: "getTemplates",
    method: "GET",
    path: "/templates/getTemplates",
    tag: "templates",
    summary: "List the templates the account may create machines from",
    query: filterQuery(TEMPLATE_FILTER_FIELDS),
    answer: ok(TemplateListSchema, "The templates."),
    refusals: [403],
  },
  createDelegation: {
    id: "createDelegation",
    method: "POST",
    path: "/resourceDelegations/create",
    tag: "resourceDelegations",
    summary: "A four-hour token for some machines",
    description:
      "The token (`accessTokenId`) works as X-Api-Key for show, utilization, start, stop and restart of the listed machines, until 4 hours after `dtCreated`. Older servers answered a one-element array of the delegation; clients accept both.",
    body: { schema: CreateDelegationRequestSchema, required: false },
    answer: ok(ResourceDelegationSchema, "The delegation with its token."),
    refusals: [403, 404],
  },
} as const satisfies Record<string, Operation>;

/** The id of an operation of the API. */
export type OperationId = keyof typeof OPERATIONS;
