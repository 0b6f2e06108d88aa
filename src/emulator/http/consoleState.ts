/**
 * The console's views of the emulator (consoleTypes.ts): the store as the API serves it, through
 * the same wire views (model/views.ts), with what only the emulator knows beside it (accounts,
 * roles, state history). Keys and delegation tokens are left out here, once: nothing the page is
 * sent can hold one. These are projections; they decide nothing and change nothing but the
 * lifecycle steps any read takes.
 */
import { delegationExpiry } from "../model/auth";
import { notFound } from "../model/apiError";
import { eventView, machineView, networkView, scriptView, templateView } from "../model/views";
import { iso, isoOrNull } from "../state/clock";
import { stateEndsAt } from "../state/lifecycle";
import type { MachineRecord, Stored, UserRecord } from "../state/records";
import type { Store } from "../state/store";
import type { EmulatorContext } from "../emulatorContext";
import type {
  ConsoleAccount,
  ConsoleMachine,
  ConsoleMachineDetail,
  ConsoleState,
  ConsoleStatus,
  ConsoleUser,
} from "./consoleTypes";

/** The clock, the request count, the fault rules and the rate limit: cheap, sent every tick it changed. */
export function consoleStatus(emulator: EmulatorContext): ConsoleStatus {
  return {
    now: iso(emulator.clock.now()),
    clock: emulator.clock.mode,
    timeScale: emulator.store.timeScale,
    requestsServed: emulator.requests.nextSeq - 1,
    faults: { rules: emulator.faults.list(), injected: emulator.faults.injected() },
    rateLimit: emulator.rateLimits.view(),
  };
}

/** Every record the console shows, and when it next changes by itself (a machine's timed state ends). */
export function consoleState(store: Store): { state: ConsoleState; nextChangeAt: number } {
  const machines = store.machines.all();
  const attached = new Map<string, Stored<MachineRecord>[]>();
  let nextChangeAt = Number.POSITIVE_INFINITY;
  for (const m of machines) {
    if (m.dtDestroyed !== null) continue;
    nextChangeAt = Math.min(nextChangeAt, stateEndsAt(m, store.timeScale) ?? Number.POSITIVE_INFINITY);
    if (m.scriptId === null) continue;
    const list = attached.get(m.scriptId);
    if (list === undefined) attached.set(m.scriptId, [m]);
    else list.push(m);
  }
  const state: ConsoleState = {
    accounts: accounts(store),
    machines: machines.map(consoleMachine),
    users: store.users.all().map(consoleUser),
    teams: store.teams.all().map((t) => ({ id: t.id, name: t.name, dtCreated: iso(t.dtCreated) })),
    scripts: store.scripts.all().map((s) => {
      const { machines = [], ...view } = scriptView(s, attached.get(s.id) ?? []);
      return { ...view, machines };
    }),
    delegations: store.delegations.all().map((x) => ({
      id: x.id,
      userId: x.userId,
      machineIds: [...x.machineIds],
      isEnabled: x.isEnabled,
      dtCreated: iso(x.dtCreated),
      expires: iso(delegationExpiry(store, x)),
    })),
    networks: store.networks.all().map((n) => ({ ...networkView(n), userId: n.userId })),
    templates: store.templates.all().map(templateView),
    capacity: store.capacity.all().map((c) => ({ ...c })),
    reservedIps: [...store.reservedIps.all()],
  };
  return { state, nextChangeAt };
}

/** One machine with its events, state history and access grants; 404 when the store never had it. */
export function consoleMachineDetail(store: Store, machineId: string): ConsoleMachineDetail {
  const m = store.machines.find((x) => x.id === machineId);
  if (m === undefined) throw notFound(`machine ${machineId} not found`);
  return {
    machine: { ...machineView(m, { internalId: true }), dtDestroyed: isoOrNull(m.dtDestroyed) },
    events: m.events.map(eventView),
    history: (m.history ?? []).map((h) => ({ state: h.state, at: iso(h.at) })),
    accessUserIds: [...m.accessUserIds],
  };
}

/** A script's text, as getScriptText answers it; 404 when there is no such script. */
export function consoleScriptText(store: Store, scriptId: string): { text: string } {
  const script = store.scripts.find((s) => s.id === scriptId);
  if (script === undefined) throw notFound(`script ${scriptId} not found`);
  return { text: script.text };
}

function consoleMachine(m: Stored<MachineRecord>): ConsoleMachine {
  // The API's own view, so the console shows what a caller would (no IP while provisioning).
  const view = machineView(m);
  return {
    id: m.id,
    name: m.name,
    state: m.state,
    region: m.region,
    machineType: m.machineType,
    publicIp: view.publicIpAddress,
    accountId: m.teamId ?? m.userId,
    userId: m.userId,
    scriptId: m.scriptId,
    dtCreated: iso(m.dtCreated),
    stateSince: iso(m.stateSince),
    dtDestroyed: isoOrNull(m.dtDestroyed),
  };
}

function consoleUser(u: Stored<UserRecord>): ConsoleUser {
  return {
    id: u.id,
    email: u.email,
    firstname: u.firstname,
    lastname: u.lastname,
    teamId: u.teamId,
    role: u.role,
    accountId: u.teamId ?? u.id,
  };
}

/** The teams, then every user without a team (each its own individual account). */
function accounts(store: Store): ConsoleAccount[] {
  const teams = store.teams.all().map((t): ConsoleAccount => ({ id: t.id, kind: "team", name: t.name }));
  const individuals = store.users
    .all()
    .filter((u) => u.teamId === null)
    .map((u): ConsoleAccount => ({
      id: u.id,
      kind: "individual",
      name: `${u.firstname} ${u.lastname}`.trim() || u.email,
    }));
  return [...teams, ...individuals];
}
