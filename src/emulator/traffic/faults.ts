/**
 * Fault injection for API requests (never /_emulator): scripted rules added through
 * `POST /_emulator/faults`, and random faults from `--fault-rate` drawn from a seeded PRNG, so
 * the same seed replays the same sequence of failures. A rule may also hold its request until
 * the test releases it (`POST /_emulator/held/release`): a test that kills a client while a
 * request is held knows where the kill landed, however slowly the machine runs.
 */
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../../contract/constants";
import { SeededRandom } from "../state/random";

/** The longest `latencyMs` a rule may ask for (emulator time, before the time scale). */
export const MAX_LATENCY_MS = 3_600_000;

/** One scripted rule as sent to `POST /_emulator/faults`. */
export const FaultRuleSchema = z.strictObject({
  method: z.string().min(1).optional(),
  route: z.string().min(1).optional(),
  status: z.number().int().min(400).max(599).optional(),
  code: z.enum(ERROR_CODES).optional(),
  times: z.number().int().min(1).default(1),
  // Matching requests let through untouched before the rule fires: the second create of a route.
  skip: z.number().int().min(0).default(0),
  retryAfterSeconds: z.number().int().min(0).optional(),
  // Up to an hour: a create answered minutes late is a case the client must survive.
  latencyMs: z.number().int().min(0).max(MAX_LATENCY_MS).optional(),
  // A proxy that gives up: the connection is cut while the request goes on (acting after a
  // longer latencyMs), so the client sees a reset and the machine appears later.
  cutAfterMs: z.number().int().min(0).max(MAX_LATENCY_MS).optional(),
  reset: z.boolean().optional(),
  dropResponse: z.boolean().optional(),
  // Held until released, then as the rule says: "request" holds this request; "all" holds it and
  // every API request after it (the API stands still there, whatever the client does meanwhile).
  hold: z.enum(["request", "all"]).optional(),
});
/** A validated rule; `times` counts down as it fires. */
export type FaultRule = z.output<typeof FaultRuleSchema>;

/** Body of `POST /_emulator/faults`. */
export const FaultRulesRequestSchema = z.strictObject({ rules: z.array(FaultRuleSchema).min(1) });

/** What to do to one request. `act` and `drop` run the request; `reset` and `status` do not. */
export interface FaultAction {
  source: "rule" | "random";
  /** As the rule says it, in the API's time: the server multiplies it by its time scale. */
  latencyMs: number;
  /** The connection is cut this long after the request arrived (time-scaled), whatever it does. */
  cutAfterMs?: number;
  kind: "act" | "reset" | "status" | "drop";
  status?: number;
  code?: ErrorCode;
  retryAfterSeconds?: number;
  /** Wait for `POST /_emulator/held/release` before anything else. */
  hold?: boolean;
}

/** A request a `hold` rule holds, as `GET /_emulator/held` lists it (in the order they came). */
export interface HeldRequest {
  method: string;
  /** The route's template, e.g. `/machines/createSingleMachinePublic`. */
  route: string;
}

const DEFAULT_CODES: Record<number, ErrorCode> = {
  400: "validation_failed",
  401: "invalid_api_key",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  429: "rate_limited",
  503: "service_unavailable",
};

/** The code a fault status answers with unless the rule names one. */
export function defaultFaultCode(status: number): ErrorCode {
  return DEFAULT_CODES[status] ?? (status >= 500 ? "internal_error" : "validation_failed");
}

/** The random fault kinds, chosen uniformly once a request is picked to fail. */
const RANDOM_FAULTS: readonly Omit<FaultAction, "source" | "latencyMs">[] = [
  { kind: "status", status: 429, code: "rate_limited", retryAfterSeconds: 1 },
  { kind: "status", status: 500, code: "internal_error" },
  { kind: "status", status: 503, code: "service_unavailable" },
  { kind: "reset" },
  { kind: "drop" },
];

/**
 * Faults injected since the start or the last reset, by what the client met: `429`, `500`, `503`
 * (any status a fault answered), `reset`, `drop`, and `delay` (a rule that only held or cut the
 * request). A test reads it to know its run really met faults.
 */
export interface FaultCounts {
  /** Every injected fault, random and scripted. */
  total: number;
  /** The seeded random ones among them. */
  random: number;
  byKind: Record<string, number>;
}

/** Scripted rules (consumed first) and seeded random faults. */
export class Faults {
  private rules: FaultRule[] = [];
  private random: SeededRandom;
  private counts: FaultCounts = emptyCounts();
  private held: { request: HeldRequest; release: () => void }[] = [];
  /** A rule with `hold: "all"` fired: every API request is held until the release. */
  private holdingAll = false;

  constructor(
    private readonly rate: number,
    private readonly seed: number,
  ) {
    this.random = new SeededRandom(seed);
  }

  /** Appends rules; they match in the order added. */
  add(rules: readonly FaultRule[]): void {
    this.rules.push(...rules.map((r) => ({ ...r })));
  }

  /** The rules still armed, with `times` counting down as they fire. */
  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
  }

  /** Clears the rules and the counts, and restarts the random sequence from the seed. */
  reset(): void {
    this.clear();
    this.random = new SeededRandom(this.seed);
    this.counts = emptyCounts();
  }

  /** The faults injected so far. */
  injected(): FaultCounts {
    return { ...this.counts, byKind: { ...this.counts.byKind } };
  }

  /** The fault for one API request, or null to answer normally. */
  decide(method: string, pathname: string, template: string | null): FaultAction | null {
    const action = this.decideUnheld(method, pathname, template);
    if (!this.holdingAll || action?.hold) return action;
    return { ...(action ?? { source: "rule", latencyMs: 0, kind: "act" }), hold: true };
  }

  /**
   * Resolves when the request (`decide` said `hold`) is released; the requests held are listed
   * by `heldRequests` meanwhile. A reset neither releases nor forgets them.
   */
  hold(request: HeldRequest): Promise<void> {
    return new Promise((release) => this.held.push({ request: { ...request }, release }));
  }

  /** The requests held now, in the order they came. */
  heldRequests(): HeldRequest[] {
    return this.held.map(({ request }) => ({ ...request }));
  }

  /** Lets every held request go on (and ends a `hold: "all"`); answers the ones released. */
  release(): HeldRequest[] {
    const released = this.held;
    this.held = [];
    this.holdingAll = false;
    for (const { release } of released) release();
    return released.map(({ request }) => request);
  }

  private decideUnheld(method: string, pathname: string, template: string | null): FaultAction | null {
    const index = this.rules.findIndex((r) => ruleMatches(r, method, pathname, template));
    // A rule still skipping lets the request through, random faults included.
    if (index >= 0) {
      const action = this.fire(index);
      return action === null ? null : this.counted(action);
    }
    if (this.rate <= 0) return null;
    // Two draws per failing request, one per request otherwise: fixed for a given seed.
    if (this.random.next() >= this.rate) return null;
    const chosen = RANDOM_FAULTS[this.random.int(RANDOM_FAULTS.length)];
    return this.counted({ source: "random", latencyMs: 0, ...chosen });
  }

  private counted(action: FaultAction): FaultAction {
    const kind =
      action.kind === "status" ? String(action.status) : action.kind === "act" ? "delay" : action.kind;
    this.counts.total += 1;
    if (action.source === "random") this.counts.random += 1;
    this.counts.byKind[kind] = (this.counts.byKind[kind] ?? 0) + 1;
    return action;
  }

  private fire(index: number): FaultAction | null {
    const rule = this.rules[index];
    if (rule.skip > 0) {
      rule.skip -= 1;
      return null;
    }
    rule.times -= 1;
    if (rule.times <= 0) this.rules.splice(index, 1);
    const cut = rule.cutAfterMs === undefined ? {} : { cutAfterMs: rule.cutAfterMs };
    if (rule.hold === "all") this.holdingAll = true;
    const held = rule.hold === undefined ? {} : { hold: true };
    const base = { source: "rule" as const, latencyMs: rule.latencyMs ?? 0, ...cut, ...held };
    if (rule.reset) return { ...base, kind: "reset" };
    if (rule.status !== undefined) {
      const code = rule.code ?? defaultFaultCode(rule.status);
      return {
        ...base,
        kind: "status",
        status: rule.status,
        code,
        retryAfterSeconds: rule.retryAfterSeconds,
      };
    }
    return { ...base, kind: rule.dropResponse ? "drop" : "act" };
  }
}

function ruleMatches(rule: FaultRule, method: string, pathname: string, template: string | null): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method) return false;
  if (rule.route === undefined) return true;
  return rule.route === pathname || rule.route === template;
}

function emptyCounts(): FaultCounts {
  return { total: 0, random: 0, byKind: {} };
}
