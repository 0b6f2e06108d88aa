/**
 * Control endpoints under `/_emulator/` (no API key, never throttled): state dump, reset,
 * faults and the requests they hold, rate limit, clock and capacity. They are for tests and demos, so they report everything, destroyed machines included.
 */
import { z } from "zod";
import { MACHINE_TYPES, REGIONS, type MachineType, type Region } from "../../contract/constants";
import { delegationExpiry } from "../model/auth";
import { setCapacity } from "../model/capacity";
import { iso, isoOrNull } from "../state/clock";
import { FaultRulesRequestSchema } from "./faults";
import { RateLimitRequestSchema, rateLimitSetting } from "./rateLimit";
import { noContent, ok, type Route } from "./router";
import type { EmulatorContext } from "../emulatorContext";
import { parseWith } from "./validate";
import { delegationView, machineView, networkView, scriptView, templateView, userView } from "../model/views";
import type { Machine, Network, ResourceDelegation, Script, Template, User } from "../../contract/schemas";
import type { CapacityRecord, Role } from "../state/records";
import type { FaultCounts, FaultRule } from "./faults";
import type { RateLimitView } from "./rateLimit";

/** What a control handler sees. */
export interface ControlContext {
  emulator: EmulatorContext;
  body: unknown;
}

type ControlRoute = Route<ControlContext>;

const AdvanceSchema = z.strictObject({ ms: z.number().min(0) });
/** A change of one region's capacity for one machine type, as `POST /_emulator/capacity` takes it. */
export interface CapacityChange {
  region: Region;
  machineType: MachineType;
  /** Whether getAvailability reports the type as available there. */
  available?: boolean;
  /** The next N starts of this type in this region end off with an insufficient-capacity error. */
  failNextStarts?: number;
}

/** Body of `POST /_emulator/capacity` (`CapacityChange`). */
const CapacitySchema: z.ZodType<CapacityChange> = z.strictObject({
  region: z.enum(REGIONS),
  machineType: z.enum(MACHINE_TYPES),
  available: z.boolean().optional(),
  failNextStarts: z.number().int().min(0).optional(),
});

/** Every control route. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  { method: "GET", template: "/_emulator/state", handle: (c) => ok(stateDump(c.emulator)) },
  {
    method: "POST",
    template: "/_emulator/reset",
    handle: (c) => {
      c.emulator.resetToSeed();
      return noContent();
    },
  },
  { method: "GET", template: "/_emulator/faults", handle: (c) => ok({ rules: c.emulator.faults.list() }) },
  {
    method: "POST",
    template: "/_emulator/faults",
    handle: (c) => {
      c.emulator.faults.add(parseWith(FaultRulesRequestSchema, c.body ?? {}).rules);
      return ok({ rules: c.emulator.faults.list() });
    },
  },
  {
    method: "DELETE",
    template: "/_emulator/faults",
    handle: (c) => {
      c.emulator.faults.clear();
      return noContent();
    },
  },
  {
    method: "GET",
    template: "/_emulator/held",
    handle: (c) => ok({ requests: c.emulator.faults.heldRequests() }),
  },
  {
    method: "POST",
    template: "/_emulator/held/release",
    handle: (c) => ok({ released: c.emulator.faults.release() }),
  },
  { method: "GET", template: "/_emulator/rate-limit", handle: (c) => ok(c.emulator.rateLimits.view()) },
  {
    method: "POST",
    template: "/_emulator/rate-limit",
    handle: (c) => {
      const { rate, burst } = parseWith(RateLimitRequestSchema, c.body ?? {});
      c.emulator.rateLimits.set(rateLimitSetting(rate, burst));
      return ok(c.emulator.rateLimits.view());
    },
  },
  { method: "GET", template: "/_emulator/clock", handle: (c) => ok(clockView(c.emulator)) },
  {
    method: "POST",
    template: "/_emulator/clock/advance",
    handle: (c) => {
      const { ms } = parseWith(AdvanceSchema, c.body ?? {});
      c.emulator.advance(ms);
      return ok(clockView(c.emulator));
    },
  },
  {
    method: "POST",
    template: "/_emulator/capacity",
    handle: (c) => {
      return ok(setCapacity(c.emulator.store, parseWith(CapacitySchema, c.body ?? {})));
    },
  },
];

/** What `GET /_emulator/clock` and `POST /_emulator/clock/advance` answer. */
export interface ClockView {
  now: string;
  mode: "real" | "manual";
}

/** What `GET /_emulator/state` answers: every record, destroyed machines included; never a key. */
export interface EmulatorStateDump {
  now: string;
  clock: "real" | "manual";
  timeScale: number;
  teams: { id: string; name: string; dtCreated: string }[];
  users: (User & { role: Role })[];
  networks: Network[];
  templates: (Template & { agentType: string })[];
  machines: (Machine & { dtDestroyed: string | null; accessUserIds: string[] })[];
  scripts: (Script & { runs: Record<string, string> })[];
  accessGrants: { machineId: string; userId: string }[];
  delegations: (ResourceDelegation & { userId: string; expired: boolean })[];
  capacity: CapacityRecord[];
  reservedIps: string[];
  faults: FaultRule[];
  /** The faults injected since the start or the last reset (random and scripted). */
  faultsInjected: FaultCounts;
  rateLimit: RateLimitView;
  /** Requests served per route, keyed like `GET /machines/getMachinePublic`. */
  requestCounts: Record<string, number>;
}

function clockView(emulator: EmulatorContext): ClockView {
  return { now: iso(emulator.clock.now()), mode: emulator.clock.mode };
}

/** Everything, for `GET /_emulator/state`. API keys are left out; passwords are never stored. */
export function stateDump(emulator: EmulatorContext): EmulatorStateDump {
  const store = emulator.store;
  store.advanceAllLifecycles();
  const d = store.data;
  const now = store.now();
  return {
    now: iso(now),
    clock: store.clock.mode,
    timeScale: store.timeScale,
    teams: d.teams.map((t) => ({ ...t, dtCreated: iso(t.dtCreated) })),
    users: d.users.map((u) => ({ ...userView(u), role: u.role })),
    networks: d.networks.map(networkView),
    templates: d.templates.map((t) => ({ ...templateView(t), agentType: t.agentType })),
    machines: d.machines.map((m) => ({
      ...machineView(m, { internalId: true, events: true }),
      dtDestroyed: isoOrNull(m.dtDestroyed),
      accessUserIds: [...m.accessUserIds],
    })),
    scripts: d.scripts.map((s) => ({
      ...scriptView(
        s,
        d.machines.filter((m) => m.scriptId === s.id && m.dtDestroyed === null),
      ),
      runs: Object.fromEntries(Object.entries(s.runs).map(([id, at]) => [id, iso(at)])),
    })),
    accessGrants: d.machines.flatMap((m) => m.accessUserIds.map((userId) => ({ machineId: m.id, userId }))),
    delegations: d.delegations.map((x) => ({
      ...delegationView(x),
      userId: x.userId,
      expired: now >= delegationExpiry(store, x),
    })),
    capacity: d.capacity.map((c) => ({ ...c })),
    reservedIps: [...d.reservedIps],
    faults: emulator.faults.list(),
    faultsInjected: emulator.faults.injected(),
    rateLimit: emulator.rateLimits.view(),
    requestCounts: Object.fromEntries(emulator.counts),
  };
}
