/**
 * A minimal raw HTTP client for emulator tests: the emulator is tested on the wire, not through
 * the project's client, so a client bug cannot hide an emulator bug.
 */
import { startTestEmulator } from "../../kit/emulator";
import { machineRequest } from "../../kit/machines";
import { useStarted } from "../../kit/started";
import type { EmulatorOptions, RunningEmulator } from "../../../src/emulator";

/** One answer: status, parsed JSON body (undefined when empty) and headers. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** Options of one call. */
export interface CallOptions {
  query?: Record<string, string | number | boolean | null>;
  body?: unknown;
  /** Overrides the default key; null sends no key at all. */
  key?: string | null;
  headers?: Record<string, string>;
  /** Sent as is (no JSON encoding, no content type unless given in headers). */
  raw?: string | Buffer;
}

/** Calls the emulator at `url` with `key` unless told otherwise. */
export class Api {
  constructor(
    readonly url: string,
    readonly key: string | null,
  ) {}

  /** The same emulator with another key. */
  as(key: string | null): Api {
    return new Api(this.url, key);
  }

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Answer<T>> {
    const url = new URL(path, this.url);
    for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key === undefined ? this.key : options.key;
    if (key !== null) headers["X-Api-Key"] = key;
    let body: string | Buffer | undefined = options.raw;
    if (options.body !== undefined) {
      headers["Content-Type"] ??= "application/json";
      body = JSON.stringify(options.body);
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== "") parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, text, headers: response.headers };
  }

  get<T = unknown>(
    path: string,
    query?: CallOptions["query"],
    options: CallOptions = {},
  ): Promise<Answer<T>> {
    return this.call<T>("GET", path, { ...options, query });
  }

  post<T = unknown>(path: string, body?: unknown, options: CallOptions = {}): Promise<Answer<T>> {
    return this.call<T>("POST", path, { ...options, body });
  }
}

/** A started emulator with an Api per seeded key. */
export interface Fixture {
  emu: RunningEmulator;
  individual: Api;
  admin: Api;
  member: Api;
  anonymous: Api;
  close(): Promise<void>;
}

/** Starts an emulator (manual clock) and builds the seeded callers. */
export async function startFixture(options: EmulatorOptions = {}): Promise<Fixture> {
  const emu = await startTestEmulator(options);
  return {
    emu,
    individual: new Api(emu.url, emu.keys.individual),
    admin: new Api(emu.url, emu.keys.teamAdmin),
    member: new Api(emu.url, emu.keys.teamMember),
    anonymous: new Api(emu.url, null),
    close: () => emu.close(),
  };
}

/**
 * The fixture of one test file: started before its tests, closed after them, and (`resetEach`)
 * back to its seed before each test. Its fields are there once the file's `beforeAll` has run.
 */
export function useFixture(options: EmulatorOptions = {}, { resetEach = false } = {}): Fixture {
  const fx = useStarted(() => startFixture(options));
  if (resetEach) beforeEach(() => fx.emu.control.reset());
  return fx;
}

/** A valid create body for the individual account; override fields as needed. */
export function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return machineRequest("test-machine", overrides);
}

export { SEEDED } from "../../kit/seeded";

/** Error body shape. */
export interface ErrorBody {
  error: { name: string; status: number; message: string; code: string };
}
