/**
 * The emulator's programmatic API: `startEmulator` runs a faithful server of the VM API on
 * loopback (same code as the `vmapi-emulator` CLI). Tests use a manual clock and port 0.
 */
import type { AddressInfo } from "node:net";
import type * as http from "node:http";
import { RealClock } from "./state/clock";
import { DEFAULT_SEED } from "./state/defaultSeed";
import { EmulatorContext } from "./emulatorContext";
import { defaultBurst, rateLimitSetting } from "./traffic/rateLimit";
import { parseSeed } from "./state/seed";
import { createEmulatorServer } from "./http/server";
import { EmulatorControl } from "./controlClient";
import { CONSOLE_PATH } from "./http/consoleServer";

export { DEFAULT_SEED } from "./state/defaultSeed";
export { StateFileError } from "./state/persistence";
export { parseSeed, SeedSchema, type SeedInput } from "./state/seed";
export { LIFECYCLE, OPERATIONS } from "./state/lifecycle";
export { MACHINE_PERMISSIONS } from "./model/permissions";
export type { FaultCounts, FaultRule } from "./traffic/faults";
export {
  ControlError,
  EmulatorControl,
  emulatorControl,
  type CapacityChange,
  type CapacityRecord,
  type ClockView,
  type EmulatorStateDump,
  type FaultRuleInput,
  type HeldRequest,
  type RateCounts,
  type RateLimitChange,
  type RateLimitView,
} from "./controlClient";

/** Every option's default: the one source for startEmulator, the CLI's --help and the docs' tables. */
export const EMULATOR_DEFAULTS = {
  port: 0,
  host: "127.0.0.1",
  timeScale: 1,
  clock: "real",
  faultRate: 0,
  faultSeed: 1,
  /** Throttling per API key: off unless a rate is given. */
  rateLimit: "off",
} as const;

/** How to run an emulator. Every field is optional; the defaults are EMULATOR_DEFAULTS. */
export interface EmulatorOptions {
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Interface to listen on. */
  host?: string;
  /** Seed JSON (see docs/emulator.md), validated; default DEFAULT_SEED. */
  seed?: unknown;
  /** Persist state here atomically before answering every change; reload it at start. */
  stateFile?: string;
  /**
   * Multiplies every duration: lifecycle steps, the 4 h delegation lifetime and a fault rule's
   * `latencyMs` (0.01: a 60 s provisioning takes 0.6 s).
   */
  timeScale?: number;
  /** "real" or "manual" (time moves only through advance / POST /_emulator/clock/advance). */
  clock?: "real" | "manual";
  /** Probability in [0, 1] that an API request gets a random fault. */
  faultRate?: number;
  /** Seed of the random fault sequence (any integer). */
  faultSeed?: number;
  /**
   * Requests per second each API key may make (a token bucket on the emulator's clock, not
   * scaled by `timeScale`); past it, 429 `rate_limited` with `Retry-After`. Default: off.
   */
  rateLimit?: number;
  /**
   * Let the console and the control endpoints answer other machines too, not only loopback:
   * they show every account's machines, users' emails and script texts, and can reset, stop and
   * fault anything, with no key. Off by default, whatever `host` is.
   */
  remoteControl?: boolean;
  /** Requests a key may make at once before the rate applies; default one second's worth (≥ 1). */
  rateBurst?: number;
  /** One line per request (method, route, status, ms); default: silent. */
  log?: (line: string) => void;
}

/** A started emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. http://127.0.0.1:43117 */
  url: string;
  /** The web console's URL, `<url>/_console/` (docs/emulator.md, "The console"). */
  console: string;
  /** The typed client of its control endpoints (state dump, faults, capacity, clock, ...). */
  control: EmulatorControl;
  /** The seed's API keys. */
  keys: { individual: string; teamAdmin: string; teamMember: string };
  /** Moves the manual clock forward; throws under the real clock. */
  advance(ms: number): void;
  /** Current emulator time (epoch ms). */
  now(): number;
  /** Stops listening, drops open connections and flushes the state file. */
  close(): Promise<void>;
}

/** Validates options, loads the seed or state file, and listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = checkOptions(options);
  const context = EmulatorContext.create({
    seed: parseSeed(options.seed ?? DEFAULT_SEED),
    clockMode: settings.clock,
    timeScale: settings.timeScale,
    faultRate: settings.faultRate,
    faultSeed: settings.faultSeed,
    rateLimit: rateLimitSetting(settings.rateLimit, settings.rateBurst),
    stateFile: options.stateFile,
    remoteControl: options.remoteControl === true,
    realClock: () => new RealClock(),
  });
  const server = createEmulatorServer(context, options.log ?? (() => undefined));
  await listen(server, settings.port, settings.host);
  const { port } = server.address() as AddressInfo;
  const url = `http://${urlHost(settings.host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    console: `${url}${CONSOLE_PATH}`,
    control: new EmulatorControl(url),
    keys: context.store.keys(),
    advance: (ms) => context.advance(ms),
    now: () => context.clock.now(),
    close: () => (closing ??= closeServer(server, context)),
  };
}

function checkOptions(options: EmulatorOptions) {
  const d = EMULATOR_DEFAULTS;
  const port = options.port ?? d.port;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`port must be 0..65535 (got ${port})`);
  const timeScale = options.timeScale ?? d.timeScale;
  if (!Number.isFinite(timeScale) || timeScale < 0)
    throw new RangeError(`timeScale must be >= 0 (got ${timeScale})`);
  const faultRate = options.faultRate ?? d.faultRate;
  if (!(faultRate >= 0 && faultRate <= 1))
    throw new RangeError(`faultRate must be between 0 and 1 (got ${faultRate})`);
  const faultSeed = options.faultSeed ?? d.faultSeed;
  if (!Number.isInteger(faultSeed)) throw new RangeError(`faultSeed must be an integer (got ${faultSeed})`);
  const clock = options.clock ?? d.clock;
  if (clock !== "real" && clock !== "manual")
    throw new RangeError(`clock must be real or manual (got ${String(clock)})`);
  const { rateLimit, rateBurst } = checkRateOptions(options);
  return { port, host: options.host ?? d.host, timeScale, faultRate, faultSeed, clock, rateLimit, rateBurst };
}

function checkRateOptions({ rateLimit, rateBurst }: EmulatorOptions) {
  if (rateLimit !== undefined && !(Number.isFinite(rateLimit) && rateLimit > 0 && rateLimit <= 1e6))
    throw new RangeError(`rateLimit must be a number of requests per second > 0 (got ${rateLimit})`);
  if (rateBurst !== undefined && !(Number.isInteger(rateBurst) && rateBurst >= 1 && rateBurst <= 1e6))
    throw new RangeError(`rateBurst must be an integer >= 1 (got ${rateBurst})`);
  if (rateBurst !== undefined && rateLimit === undefined)
    throw new RangeError("rateBurst needs rateLimit: a burst without a rate limits nothing");
  return {
    rateLimit,
    rateBurst: rateBurst ?? (rateLimit === undefined ? undefined : defaultBurst(rateLimit)),
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/** A wildcard address is reached through loopback; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

async function closeServer(server: http.Server, context: EmulatorContext): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  context.persist();
}
