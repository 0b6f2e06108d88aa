/**
 * Every API operation (docs/api.md, "Endpoints"), each with a request that names a target account's
 * resources. The security matrix and the hostile-input tests both walk this list; a test checks it
 * against the emulator's route table so none is forgotten.
 */
import type { RawRequest } from "./http";
import type { Target } from "./world";

/** One API operation. */
export interface Endpoint {
  name: string;
  method: "GET" | "POST";
  /** Route template as the emulator counts it. */
  template: string;
  /** Whether a request names a resource (machine, script, user...) by id. */
  takesId: boolean;
  /** A well-formed request aimed at `t` (no key); `tag` keeps created names unique. */
  request(t: Target, tag: string): RawRequest;
}

const q = (path: string, params: Record<string, string>) =>
  `${path}?${new URLSearchParams(params).toString()}`;
const post = (path: string, json?: unknown): RawRequest => ({ method: "POST", path, json });
const get = (path: string): RawRequest => ({ method: "GET", path });

/** All twenty operations. */
export const ENDPOINTS: readonly Endpoint[] = [
  {
    name: "createMachine",
    method: "POST",
    template: "/machines/createSingleMachinePublic",
    takesId: true,
    request: (t) => post("/machines/createSingleMachinePublic", t.createBody),
  },
  ...(["start", "stop", "restart"] as const).map((verb): Endpoint => ({
    name: verb,
    method: "POST",
    template: `/machines/{machineId}/${verb}`,
    takesId: true,
    request: (t) => post(`/machines/${t.machine}/${verb}`),
  })),
  {
    name: "destroyMachine",
    method: "POST",
    template: "/machines/{machineId}/destroyMachine",
    takesId: true,
    request: (t) => post(`/machines/${t.machine}/destroyMachine`, { releasePublicIp: true }),
  },
  {
    name: "updateMachine",
    method: "POST",
    template: "/machines/{machineId}/updateMachinePublic",
    takesId: true,
    request: (t) => post(`/machines/${t.machine}/updateMachinePublic`, { machineName: "hijacked" }),
  },
  {
    name: "setMachineAccess",
    method: "POST",
    template: "/machines/{machineId}/setMachineAccess",
    takesId: true,
    request: (t) => post(`/machines/${t.machine}/setMachineAccess`, { userId: t.user, enableAccess: true }),
  },
  {
    name: "getMachines",
    method: "GET",
    template: "/machines/getMachines",
    takesId: false,
    request: (t) => get(q("/machines/getMachines", { machineId: t.machine })),
  },
  {
    name: "getMachine",
    method: "GET",
    template: "/machines/getMachinePublic",
    takesId: true,
    request: (t) => get(q("/machines/getMachinePublic", { machineId: t.machine })),
  },
  {
    name: "getUtilization",
    method: "GET",
    template: "/machines/getUtilization",
    takesId: true,
    request: (t) => get(q("/machines/getUtilization", { machineId: t.machine, billingMonth: "2026-01" })),
  },
  {
    name: "getAvailability",
    method: "GET",
    template: "/machines/getAvailability",
    takesId: false,
    request: () => get(q("/machines/getAvailability", { region: "East Coast (NY2)", machineType: "P5000" })),
  },
  {
    name: "createScript",
    method: "POST",
    template: "/scripts/createScript",
    takesId: true,
    request: (t, tag) =>
      post("/scripts/createScript", { scriptName: `s-${tag}`, scriptText: "echo", machineId: t.machine }),
  },
  {
    name: "destroyScript",
    method: "POST",
    template: "/scripts/{scriptId}/destroy",
    takesId: true,
    request: (t) => post(`/scripts/${t.script}/destroy`),
  },
  {
    name: "getScripts",
    method: "GET",
    template: "/scripts/getScripts",
    takesId: false,
    request: (t) => get(q("/scripts/getScripts", { id: t.script })),
  },
  {
    name: "getScript",
    method: "GET",
    template: "/scripts/getScript",
    takesId: true,
    request: (t) => get(q("/scripts/getScript", { scriptId: t.script })),
  },
  {
    name: "getScriptText",
    method: "GET",
    template: "/scripts/getScriptText",
    takesId: true,
    request: (t) => get(q("/scripts/getScriptText", { scriptId: t.script })),
  },
  {
    name: "getUsers",
    method: "GET",
    template: "/users/getUsers",
    takesId: false,
    request: (t) => get(q("/users/getUsers", { id: t.user })),
  },
  {
    name: "getNetworks",
    method: "GET",
    template: "/networks/getNetworks",
    takesId: false,
    request: (t) => get(q("/networks/getNetworks", { id: t.network })),
  },
  {
    name: "getTemplates",
    method: "GET",
    template: "/templates/getTemplates",
    takesId: false,
    request: (t) => get(q("/templates/getTemplates", { [t.templateFilter[0]]: t.templateFilter[1] })),
  },
  {
    name: "createDelegation",
    method: "POST",
    template: "/resourceDelegations/create",
    takesId: true,
    request: (t) => post("/resourceDelegations/create", { machine: { ids: [t.machine] } }),
  },
];
