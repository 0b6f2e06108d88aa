/**
 * Control endpoints under `/_emulator/` (no API key, never throttled): state dump, reset,
 * faults and the requests they hold, rate limit, clock, capacity, and a machine stopped or renamed
 * out of band (machineControl.ts). They are for tests and demos, so they report everything, destroyed machines included.
 */
import type { Operation } from "../../contract/operation";
import { delegationExpiry } from "../model/auth";
import { setCapacity } from "../model/capacity";
import { iso, isoOrNull } from "../state/clock";
import { CONTROL_OPERATIONS, type ControlOperationId } from "./controlOperations";
import { MACHINE_CONTROL_HANDLERS } from "./machineControl";
import { rateLimitSetting } from "../traffic/rateLimit";
import { routeOf } from "./routes";
import { noContent, ok, type Route } from "./router";
import type { EmulatorContext } from "../emulatorContext";
import { bodyOrEmpty, parseWith } from "./validate";
import { delegationView, machineView, networkView, scriptView, templateView, userView } from "../model/views";
import type { ClockView, ControlContext, EmulatorStateDump } from "./controlTypes";

type ControlRoute = Route<ControlContext>;

const ops = CONTROL_OPERATIONS;

/** The handler of every control endpoint of the table (a missing one does not compile). */
const HANDLERS: { readonly [K in ControlOperationId]: ControlRoute["handle"] } = {
  getState: (c) => ok(stateDump(c.emulator)),
  reset: (c) => {
    c.emulator.resetToSeed();
    return noContent();
  },
  getFaults: (c) => ok({ rules: c.emulator.faults.list() }),
  addFaults: (c) => {
    c.emulator.faults.add(parseWith(ops.addFaults.body.schema, bodyOrEmpty(c.body)).rules);
    return ok({ rules: c.emulator.faults.list() });
  },
  clearFaults: (c) => {
    c.emulator.faults.clear();
    return noContent();
  },
  getHeld: (c) => ok({ requests: c.emulator.faults.heldRequests() }),
  releaseHeld: (c) => ok({ released: c.emulator.faults.release() }),
  getRateLimit: (c) => ok(c.emulator.rateLimits.view()),
  setRateLimit: (c) => {
    const { rate, burst } = parseWith(ops.setRateLimit.body.schema, bodyOrEmpty(c.body));
    c.emulator.rateLimits.set(rateLimitSetting(rate, burst));
    return ok(c.emulator.rateLimits.view());
  },
  getClock: (c) => ok(clockView(c.emulator)),
  advanceClock: (c) => {
    const { ms } = parseWith(ops.advanceClock.body.schema, bodyOrEmpty(c.body));
    c.emulator.advance(ms);
    return ok(clockView(c.emulator));
  },
  setCapacity: (c) =>
    ok(setCapacity(c.emulator.store, parseWith(ops.setCapacity.body.schema, bodyOrEmpty(c.body)))),
  ...MACHINE_CONTROL_HANDLERS,
};

/** Every control route, in the table's order. */
export const CONTROL_ROUTES: readonly ControlRoute[] = Object.values(CONTROL_OPERATIONS).map(
  (operation: Operation) => routeOf(operation, HANDLERS[operation.id as ControlOperationId]),
);

function clockView(emulator: EmulatorContext): ClockView {
  return { now: iso(emulator.clock.now()), mode: emulator.clock.mode };
}

/** Everything, for `GET /_emulator/state`. API keys and delegation tokens are left out; passwords are never stored. */
export function stateDump(emulator: EmulatorContext): EmulatorStateDump {
  const store = emulator.store;
  const machines = store.machines.all();
  const now = store.now();
  return {
    now: iso(now),
    clock: store.clock.mode,
    timeScale: store.timeScale,
    teams: store.teams.all().map((t) => ({ ...t, dtCreated: iso(t.dtCreated) })),
    users: store.users.all().map((u) => ({ ...userView(u), role: u.role })),
    networks: store.networks.all().map(networkView),
    templates: store.templates.all().map((t) => ({ ...templateView(t), agentType: t.agentType })),
    machines: machines.map((m) => ({
      ...machineView(m, { internalId: true, events: true }),
      dtDestroyed: isoOrNull(m.dtDestroyed),
      accessUserIds: [...m.accessUserIds],
    })),
    scripts: store.scripts.all().map((s) => ({
      ...scriptView(
        s,
        machines.filter((m) => m.scriptId === s.id && m.dtDestroyed === null),
      ),
      runs: Object.fromEntries(Object.entries(s.runs).map(([id, at]) => [id, iso(at)])),
    })),
    accessGrants: machines.flatMap((m) => m.accessUserIds.map((userId) => ({ machineId: m.id, userId }))),
    delegations: store.delegations.all().map((x) => {
      // The token is a key: the dump names a delegation by its id, never by its token.
      const { accessTokenId: _token, ...view } = delegationView(x);
      return { ...view, userId: x.userId, expired: now >= delegationExpiry(store, x) };
    }),
    capacity: store.capacity.all().map((c) => ({ ...c })),
    reservedIps: [...store.reservedIps.all()],
    faults: emulator.faults.list(),
    faultsInjected: emulator.faults.injected(),
    rateLimit: emulator.rateLimits.view(),
    requestCounts: Object.fromEntries(emulator.counts),
  };
}
