/**
 * The client against the real emulator on loopback, with the emulator's manual clock: the
 * client's injected `sleep` advances the emulator's clock, so waits and backoffs cost no real
 * time, and `now` reads the same virtual time.
 */
import { VmApiClient, type VmApiClientOptions } from "../../../src/client/client";
import { startEmulator } from "../../../src/emulator";

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** One emulator plus helpers to build clients and drive the emulator's control endpoints. */
export interface Harness {
  emu: Emulator;
  url: string;
  /** Virtual milliseconds slept by every client of this harness. */
  elapsed(): number;
  /** Every sleep of the harness's clients, in order. */
  sleeps: number[];
  /** A client with the given key (default: the individual account) on the virtual clock. */
  client(options?: Partial<VmApiClientOptions> & { key?: keyof Emulator["keys"] }): VmApiClient;
  /** Advances the emulator's clock (and the virtual time) without a client. */
  advance(ms: number): void;
  /** `requestCounts` of the emulator's state dump, keyed like "GET /machines/getMachinePublic". */
  counts(): Promise<Record<string, number>>;
  /** The emulator's state dump. */
  state(): Promise<Record<string, unknown>>;
  faults(rules: Record<string, unknown>[]): Promise<void>;
  capacity(body: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Starts an emulator with a manual clock on 127.0.0.1 and a free port. */
export async function startHarness(options: { timeScale?: number; seed?: unknown } = {}): Promise<Harness> {
  const emu = await startEmulator({ host: "127.0.0.1", port: 0, clock: "manual", log: () => {}, ...options });
  let virtual = 0;
  const sleeps: number[] = [];
  const advance = (ms: number) => {
    virtual += ms;
    emu.advance(ms);
  };
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${emu.url}/_emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`${method} /_emulator/${path}: ${response.status} ${await response.text()}`);
    const text = await response.text();
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };
  return {
    emu,
    url: emu.url,
    sleeps,
    elapsed: () => virtual,
    advance,
    client: ({ key = "individual", ...rest } = {}) =>
      new VmApiClient({
        apiKey: emu.keys[key],
        baseUrl: emu.url,
        env: {},
        sleep: async (ms) => {
          sleeps.push(ms);
          advance(ms);
        },
        now: () => virtual,
        random: () => 0.5,
        ...rest,
      }),
    counts: async () => ((await control("GET", "state")).requestCounts ?? {}) as Record<string, number>,
    state: () => control("GET", "state"),
    faults: async (rules) => void (await control("POST", "faults", { rules })),
    capacity: async (body) => void (await control("POST", "capacity", body)),
    close: () => emu.close(),
  };
}

/** API request count differences between two `counts()` snapshots; zeros and control calls left out. */
export function countDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [key, value] of Object.entries(after)) {
    const d = value - (before[key] ?? 0);
    if (d !== 0 && !key.includes("/_emulator")) delta[key] = d;
  }
  return delta;
}

/** A valid create request for the individual account (Linux desktop: provisioning → ready). */
export function machineRequest(machineName: string, extra: Record<string, unknown> = {}) {
  return {
    region: "East Coast (NY2)" as const,
    machineType: "C4" as const,
    size: 50,
    billingType: "hourly" as const,
    machineName,
    templateId: "tubdesk1",
    ...extra,
  };
}

/** Provisioning length at time scale 1 (the emulator's lifecycle table). */
export const PROVISIONING_MS = 60_000;
