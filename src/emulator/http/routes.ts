/**
 * The API's route table (docs/api.md, "Endpoints"). Each handler parses the request parts
 * into typed arguments (requestArgs.ts) and calls a service; the rules live in the services,
 * the wire writing in server.ts.
 */
import {
  NETWORK_FILTER_FIELDS,
  SCRIPT_FILTER_FIELDS,
  TEMPLATE_FILTER_FIELDS,
  USER_FILTER_FIELDS,
} from "../../contract/listFilters";
import {
  AvailabilityQuerySchema,
  CreateDelegationRequestSchema,
  CreateMachineRequestSchema,
  UpdateMachineRequestSchema,
  UtilizationQuerySchema,
} from "../../contract/requestSchemas";
import { accountAdmin, accountUser, type Caller } from "../model/auth";
import { getAvailability } from "../model/capacity";
import { createDelegation } from "../model/delegations";
import { listNetworks, listTemplates, listUsers } from "../model/directory";
import { createMachine } from "../model/machineCreate";
import {
  destroyMachine,
  listMachines,
  operateMachine,
  setMachineAccess,
  showMachine,
  updateMachine,
} from "../model/machines";
import type { Upload } from "./multipart";
import { machineFor } from "../model/permissions";
import { accessArgs, createScriptArgs, destroyArgs, listArgs, parseQuery, queryId } from "./requestArgs";
import { noContent, ok, type Reply, type Route } from "./router";
import { createScript, destroyScript, listScripts, scriptText, showScript } from "../model/scripts";
import type { Store } from "../state/store";
import { getUtilization } from "../model/usage";
import { parseFilters, parseWith } from "./validate";

/** What an API handler sees: the store, the authenticated caller and the parsed request. */
export interface ApiContext {
  store: Store;
  caller: Caller;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none or sent an upload. */
  body?: unknown;
  /** A multipart/form-data body, only on routes that take one (`multipart: true`). */
  upload?: Upload;
}

type ApiRoute = Route<ApiContext>;

/** For services that answer nothing: 204 once they return. */
const done = (_result: void): Reply => noContent();

const get = (template: string, handle: ApiRoute["handle"]): ApiRoute => ({ method: "GET", template, handle });
const post = (template: string, handle: ApiRoute["handle"]): ApiRoute => ({
  method: "POST",
  template,
  handle,
});

/**
 * Every API route. A handler resolves who may call (when that needs no input, so a caller who may
 * not call learns nothing about input rules), parses the request, and calls one service.
 */
export const API_ROUTES: readonly ApiRoute[] = [
  post("/machines/createSingleMachinePublic", (c) => {
    const admin = accountAdmin(c.caller, "create machines");
    return ok(createMachine(c.store, admin, parseWith(CreateMachineRequestSchema, c.body)));
  }),
  post("/machines/{machineId}/start", (c, p) =>
    done(operateMachine(c.store, c.caller, p.machineId, "start")),
  ),
  post("/machines/{machineId}/stop", (c, p) => done(operateMachine(c.store, c.caller, p.machineId, "stop"))),
  post("/machines/{machineId}/restart", (c, p) =>
    done(operateMachine(c.store, c.caller, p.machineId, "restart")),
  ),
  post("/machines/{machineId}/destroyMachine", (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "destroy");
    return done(destroyMachine(c.store, machine, destroyArgs(c.body, c.query)));
  }),
  post("/machines/{machineId}/updateMachinePublic", (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "update");
    return done(updateMachine(c.store, machine, parseWith(UpdateMachineRequestSchema, c.body ?? {})));
  }),
  post("/machines/{machineId}/setMachineAccess", (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "setAccess");
    const args = accessArgs(c.body, p.machineId);
    return done(setMachineAccess(c.store, accountUser(c.caller, "set machine access"), machine, args));
  }),
  get("/machines/getMachines", (c) => {
    const user = accountUser(c.caller, "list machines");
    return ok(listMachines(c.store, user, listArgs(c.query)));
  }),
  get("/machines/getMachinePublic", (c) => ok(showMachine(c.store, c.caller, queryId(c.query, "machineId")))),
  get("/machines/getUtilization", (c) =>
    ok(getUtilization(c.store, c.caller, parseQuery(UtilizationQuerySchema, c.query))),
  ),
  get("/machines/getAvailability", (c) => {
    accountUser(c.caller, "read availability");
    return ok(getAvailability(c.store, parseQuery(AvailabilityQuerySchema, c.query)));
  }),
  {
    ...post("/scripts/createScript", (c) => {
      const admin = accountAdmin(c.caller, "create scripts");
      return ok(createScript(c.store, admin, createScriptArgs(c.body, c.upload, c.query)));
    }),
    multipart: true,
  },
  post("/scripts/{scriptId}/destroy", (c, p) =>
    done(destroyScript(c.store, accountAdmin(c.caller, "destroy scripts"), p.scriptId)),
  ),
  get("/scripts/getScripts", (c) => {
    const user = accountUser(c.caller, "list scripts");
    return ok(listScripts(c.store, user, parseFilters(c.query, SCRIPT_FILTER_FIELDS)));
  }),
  get("/scripts/getScript", (c) => {
    const user = accountUser(c.caller, "show scripts");
    return ok(showScript(c.store, user, queryId(c.query, "scriptId")));
  }),
  get("/scripts/getScriptText", (c) => {
    const user = accountUser(c.caller, "read script text");
    return ok(scriptText(c.store, user, queryId(c.query, "scriptId")));
  }),
  get("/users/getUsers", (c) => {
    const user = accountUser(c.caller, "list users");
    return ok(listUsers(c.store, user, parseFilters(c.query, USER_FILTER_FIELDS)));
  }),
  get("/networks/getNetworks", (c) => {
    const user = accountUser(c.caller, "list networks");
    return ok(listNetworks(c.store, user, parseFilters(c.query, NETWORK_FILTER_FIELDS)));
  }),
  get("/templates/getTemplates", (c) => {
    const user = accountUser(c.caller, "list templates");
    return ok(listTemplates(c.store, user, parseFilters(c.query, TEMPLATE_FILTER_FIELDS)));
  }),
  post("/resourceDelegations/create", (c) => {
    const user = accountUser(c.caller, "create resource delegations");
    return ok(createDelegation(c.store, user, parseWith(CreateDelegationRequestSchema, c.body ?? {})));
  }),
];
