/**
 * The API's route table (vm-api.md plus wire-facts.md). Each handler only parses the request
 * parts and calls a service; the rules live in the services, the wire writing in server.ts.
 */
import type { Caller } from "./auth";
import { getAvailability } from "./capacity";
import { createDelegation } from "./delegations";
import { listNetworks, listTemplates, listUsers } from "./directory";
import { createMachine } from "./machineCreate";
import {
  destroyMachine,
  listMachines,
  operateMachine,
  setMachineAccess,
  showMachine,
  updateMachine,
} from "./machines";
import { noContent, ok, type Reply, type Route } from "./router";
import { createScript, destroyScript, listScripts, scriptText, showScript } from "./scripts";
import type { Store } from "./store";
import { getUtilization } from "./usage";

/** What an API handler sees: the store, the authenticated caller and the parsed request. */
export interface ApiContext {
  store: Store;
  caller: Caller;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
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

/** Every API route. */
export const API_ROUTES: readonly ApiRoute[] = [
  post("/machines/createSingleMachinePublic", (c) => ok(createMachine(c.store, c.caller, c.body))),
  post("/machines/{machineId}/start", (c, p) =>
    done(operateMachine(c.store, c.caller, p.machineId, "start")),
  ),
  post("/machines/{machineId}/stop", (c, p) => done(operateMachine(c.store, c.caller, p.machineId, "stop"))),
  post("/machines/{machineId}/restart", (c, p) =>
    done(operateMachine(c.store, c.caller, p.machineId, "restart")),
  ),
  post("/machines/{machineId}/destroyMachine", (c, p) =>
    done(destroyMachine(c.store, c.caller, p.machineId, c.body, c.query)),
  ),
  post("/machines/{machineId}/updateMachinePublic", (c, p) =>
    done(updateMachine(c.store, c.caller, p.machineId, c.body)),
  ),
  post("/machines/{machineId}/setMachineAccess", (c, p) =>
    done(setMachineAccess(c.store, c.caller, p.machineId, c.body)),
  ),
  get("/machines/getMachines", (c) => ok(listMachines(c.store, c.caller, c.query))),
  get("/machines/getMachinePublic", (c) => ok(showMachine(c.store, c.caller, c.query))),
  get("/machines/getUtilization", (c) => ok(getUtilization(c.store, c.caller, c.query))),
  get("/machines/getAvailability", (c) => ok(getAvailability(c.store, c.caller, c.query))),
  post("/scripts/createScript", (c) => ok(createScript(c.store, c.caller, c.body))),
  post("/scripts/{scriptId}/destroy", (c, p) => done(destroyScript(c.store, c.caller, p.scriptId))),
  get("/scripts/getScripts", (c) => ok(listScripts(c.store, c.caller, c.query))),
  get("/scripts/getScript", (c) => ok(showScript(c.store, c.caller, c.query))),
  get("/scripts/getScriptText", (c) => ok(scriptText(c.store, c.caller, c.query))),
  get("/users/getUsers", (c) => ok(listUsers(c.store, c.caller, c.query))),
  get("/networks/getNetworks", (c) => ok(listNetworks(c.store, c.caller, c.query))),
  get("/templates/getTemplates", (c) => ok(listTemplates(c.store, c.caller, c.query))),
  post("/resourceDelegations/create", (c) => ok(createDelegation(c.store, c.caller, c.body))),
];
