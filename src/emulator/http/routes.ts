/**
 * The handlers of the API's routes. The routes themselves (method, path, schemas) are the
 * contract's table (src/contract/operations.ts); each handler parses the request parts with the
 * table's schemas into typed arguments (requestArgs.ts) and calls a service; the rules live in
 * the services, the wire writing in server.ts.
 */
import {
  NETWORK_FILTER_FIELDS,
  SCRIPT_FILTER_FIELDS,
  TEMPLATE_FILTER_FIELDS,
  USER_FILTER_FIELDS,
} from "../../contract/listFilters";
import type { Operation } from "../../contract/operation";
import { OPERATIONS, type OperationId } from "../../contract/operations";
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
import { accessArgs, createScriptArgs, destroyArgs, listArgs, parseQuery } from "./requestArgs";
import { noContent, ok, type Reply, type Route } from "./router";
import { createScript, destroyScript, listScripts, scriptText, showScript } from "../model/scripts";
import type { Store } from "../state/store";
import { getUtilization } from "../model/usage";
import { bodyOrEmpty, parseFilters, parseWith } from "./validate";

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
type Handler = ApiRoute["handle"];

/** For services that answer nothing: 204 once they return. */
const done = (_result: void): Reply => noContent();

const ops = OPERATIONS;

/**
 * The handler of every operation of the table (a missing one does not compile). A handler
 * resolves who may call (when that needs no input, so a caller who may not call learns nothing
 * about input rules), parses the request, and calls one service.
 */
const HANDLERS: { readonly [K in OperationId]: Handler } = {
  createMachine: (c) => {
    const admin = accountAdmin(c.caller, "create machines");
    return ok(createMachine(c.store, admin, parseWith(ops.createMachine.body.schema, c.body)));
  },
  startMachine: (c, p) => done(operateMachine(c.store, c.caller, p.machineId, "start")),
  stopMachine: (c, p) => done(operateMachine(c.store, c.caller, p.machineId, "stop")),
  restartMachine: (c, p) => done(operateMachine(c.store, c.caller, p.machineId, "restart")),
  destroyMachine: (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "destroy");
    return done(destroyMachine(c.store, machine, destroyArgs(c.body, c.query)));
  },
  updateMachine: (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "update");
    return done(
      updateMachine(c.store, machine, parseWith(ops.updateMachine.body.schema, bodyOrEmpty(c.body))),
    );
  },
  setMachineAccess: (c, p) => {
    const machine = machineFor(c.store, c.caller, p.machineId, "setAccess");
    const args = accessArgs(c.body, p.machineId);
    return done(setMachineAccess(c.store, accountUser(c.caller, "set machine access"), machine, args));
  },
  getMachines: (c) => {
    const user = accountUser(c.caller, "list machines");
    return ok(listMachines(c.store, user, listArgs(c.query)));
  },
  getMachinePublic: (c) =>
    ok(showMachine(c.store, c.caller, parseQuery(ops.getMachinePublic.query, c.query).machineId)),
  getUtilization: (c) => ok(getUtilization(c.store, c.caller, parseQuery(ops.getUtilization.query, c.query))),
  getAvailability: (c) => {
    accountUser(c.caller, "read availability");
    return ok(getAvailability(c.store, parseQuery(ops.getAvailability.query, c.query)));
  },
  createScript: (c) => {
    const admin = accountAdmin(c.caller, "create scripts");
    return ok(createScript(c.store, admin, createScriptArgs(c.body, c.upload, c.query)));
  },
  destroyScript: (c, p) =>
    done(destroyScript(c.store, accountAdmin(c.caller, "destroy scripts"), p.scriptId)),
  getScripts: (c) => {
    const user = accountUser(c.caller, "list scripts");
    return ok(listScripts(c.store, user, parseFilters(c.query, SCRIPT_FILTER_FIELDS)));
  },
  getScript: (c) => {
    const user = accountUser(c.caller, "show scripts");
    return ok(showScript(c.store, user, parseQuery(ops.getScript.query, c.query).scriptId));
  },
  getScriptText: (c) => {
    const user = accountUser(c.caller, "read script text");
    return ok(scriptText(c.store, user, parseQuery(ops.getScriptText.query, c.query).scriptId));
  },
  getUsers: (c) => {
    const user = accountUser(c.caller, "list users");
    return ok(listUsers(c.store, user, parseFilters(c.query, USER_FILTER_FIELDS)));
  },
  getNetworks: (c) => {
    const user = accountUser(c.caller, "list networks");
    return ok(listNetworks(c.store, user, parseFilters(c.query, NETWORK_FILTER_FIELDS)));
  },
  getTemplates: (c) => {
    const user = accountUser(c.caller, "list templates");
    return ok(listTemplates(c.store, user, parseFilters(c.query, TEMPLATE_FILTER_FIELDS)));
  },
  createDelegation: (c) => {
    const user = accountUser(c.caller, "create resource delegations");
    return ok(
      createDelegation(c.store, user, parseWith(ops.createDelegation.body.schema, bodyOrEmpty(c.body))),
    );
  },
};

/** A route of the table with its handler: method and path as the contract says. */
export function routeOf<C>(operation: Operation, handle: Route<C>["handle"]): Route<C> {
  return {
    method: operation.method,
    template: operation.path,
    multipart: operation.upload !== undefined,
    handle,
  };
}

/** Every API route, in the table's order. */
export const API_ROUTES: readonly ApiRoute[] = Object.values(OPERATIONS).map((operation: Operation) =>
  routeOf(operation, HANDLERS[operation.id as OperationId]),
);
