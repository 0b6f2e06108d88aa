/**
 * The retired service's own Node client, `paperspace-node` 0.2.4, installed from the registry and
 * used unchanged against an in-process emulator: its host comes from PAPERSPACE_CONFIG_HOST (read
 * when the client is first loaded), its key from `paperspace({ apiKey })`, as its users called it.
 * Every call is recorded, so each file can check that it called every method of its namespaces.
 */
import { createRequire } from "node:module";
import type { EmulatorOptions, RunningEmulator } from "../../../../src/emulator";
import { startTestEmulator } from "../../../kit/emulator";
import { useStarted } from "../../../kit/started";

/** What the client hands its callback on failure: superagent's error (HTTP status) or its own. */
export interface ClientError extends Error {
  status?: number;
  /** superagent's response, for methods that pass only the error to their callback. */
  response?: { body?: unknown };
}

type Callback = (err: ClientError | null, res: unknown) => void;
type Method = (params: Record<string, unknown> | Callback, cb?: Callback) => unknown;
type Api = Record<string, Record<string, Method>>;
interface PaperspaceFactory {
  (options: { apiKey: string }): Api;
  eachEndpoint(iterator: (namespace: string, name: string) => void): unknown;
}

/** One call's outcome: the client's error (null on success) and the body it passed along. */
export interface Outcome<T = unknown> {
  err: ClientError | null;
  res: T;
}

/** The nested error body of the emulator, as the client hands it over on an HTTP error. */
export interface ErrorBody {
  error: { name: string; status: number; message: string; code: string };
}

/** The interval the client's `machines.waitfor` polls at (lib/machines/waitfor.js). */
export const WAITFOR_INTERVAL_MS = 5000;

/** Methods of the client that only touch local files (home or working directory), never the API. */
export const LOCAL_ONLY = ["logout.user", "project.clear", "project.init", "project.show"] as const;

/** A started emulator plus the client pointed at it. */
export interface ClientFixture {
  emu: RunningEmulator;
  /** Calls `namespace.name` of a fresh `paperspace({ apiKey: key })` (default: the individual key). */
  call<T = unknown>(method: string, params?: Record<string, unknown>, key?: string): Promise<Outcome<T>>;
  /** Every `namespace.name` the client exposes. */
  methods(): string[];
  /** The methods called so far. */
  called: Set<string>;
  close(): Promise<void>;
}

/** Starts an emulator (manual clock; `options`, e.g. a seed, as given) and loads the client against it. */
export async function startClientFixture(options: EmulatorOptions = {}): Promise<ClientFixture> {
  const emu = await startTestEmulator(options);
  process.env.PAPERSPACE_CONFIG_HOST = emu.url;
  // aws-sdk v2 (a dependency of the client's jobs commands) prints an end-of-support notice on load.
  process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = "1";
  const paperspace = createRequire(__filename)("paperspace-node") as PaperspaceFactory;
  const called = new Set<string>();
  const call = <T>(method: string, params?: Record<string, unknown>, key = emu.keys.individual) => {
    const [namespace, name] = method.split(".");
    // A fresh client object per call: the client deletes apiKey from its options after a call
    // without parameters, and would then fall back to a process-wide cached key.
    const fn = paperspace({ apiKey: key })[namespace][name];
    called.add(method);
    return new Promise<Outcome<T>>((resolve) => {
      const cb: Callback = (err, res) => resolve({ err, res: res as T });
      if (params === undefined) fn(cb);
      else fn({ ...params }, cb);
    });
  };
  const methods = () => {
    const all: string[] = [];
    paperspace.eachEndpoint((namespace, name) => all.push(`${namespace}.${name}`));
    return all;
  };
  return { emu, call, methods, called, close: () => emu.close() };
}

/** One client fixture for a test file: started before its tests, closed after them. */
export function useClientFixture(options: EmulatorOptions = {}): ClientFixture {
  return useStarted(() => startClientFixture(options));
}

/**
 * The answer was an HTTP error with `status`, the nested body and `code`; returns its message.
 * Most methods pass the body along; some (jobs.*, login.user) only the error, which holds it.
 */
export function expectHttpError(outcome: Outcome, status: number, code: string): string {
  expect(outcome.err?.status).toBe(status);
  const body = (outcome.res ?? outcome.err?.response?.body) as ErrorBody;
  expect(body.error).toMatchObject({ name: "Error", status, code });
  return body.error.message;
}

/** The call succeeded; returns the body. */
export function expectOk<T>(outcome: Outcome<T>): T {
  expect(outcome.err?.message ?? null).toBeNull();
  return outcome.res;
}

/**
 * While `run` runs, the client's poll timer (setTimeout of WAITFOR_INTERVAL_MS) moves the
 * emulator's manual clock by the same 5 s and fires at once: the client polls on emulator time,
 * and the test never sleeps.
 */
export async function onEmulatorTime<T>(emu: RunningEmulator, run: () => Promise<T>): Promise<T> {
  const realSetTimeout = global.setTimeout;
  const spy = jest.spyOn(global, "setTimeout").mockImplementation(((
    fn: (...args: unknown[]) => void,
    ms?: number,
    ...args: unknown[]
  ) => {
    if (ms !== WAITFOR_INTERVAL_MS) return realSetTimeout(fn, ms, ...args);
    emu.advance(ms);
    return realSetTimeout(fn, 0, ...args);
  }) as typeof setTimeout);
  try {
    return await run();
  } finally {
    spy.mockRestore();
  }
}
