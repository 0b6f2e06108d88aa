/**
 * The set-up every hostile-input file shares: one world (world.ts) per file, built before its
 * tests and closed after them; the emulator's state before any test, which a refused request must
 * leave as it was; and the one way to send a body to an endpoint under test.
 */
import type { EmulatorOptions } from "../../../src/emulator";
import { IGNORED_BODY_CASES, SCHEMA_BODY_CASES, type BodyCase } from "./bodies";
import { expectClientError, send, snapshot, type NestedError, type RawAnswer } from "./http";
import { buildWorld, type World } from "./world";

/** Every POST endpoint under test: those that validate the body and those that ignore it. */
export const ALL_BODY_CASES: readonly BodyCase[] = [...SCHEMA_BODY_CASES, ...IGNORED_BODY_CASES];

/** The world of one test file and the state its refusals must leave unchanged. */
export class HostileWorld {
  #world: World | undefined;
  /** The emulator's state dump (without request counts) before the file's first test. */
  baseline: unknown;

  /** The world; built in `beforeAll`, so read it inside tests and hooks only. */
  get world(): World {
    if (this.#world === undefined) throw new Error("the hostile world is built in beforeAll");
    return this.#world;
  }

  /** Builds the world and takes the baseline. */
  async start(options: EmulatorOptions): Promise<void> {
    this.#world = await buildWorld(options);
    await this.rebase();
  }

  /** Takes the emulator's state now as the baseline, after a test that changed it on purpose. */
  async rebase(): Promise<void> {
    this.baseline = await snapshot(this.world.url);
  }

  /** POSTs `body` to `c`'s endpoint with `c`'s key; JSON unless `headers` say otherwise. */
  post(
    c: BodyCase,
    body: string | Buffer,
    headers: Record<string, string | number> = { "Content-Type": "application/json" },
  ): Promise<RawAnswer> {
    const world = this.world;
    return send(world.url, { method: "POST", path: c.path(world), key: c.key(world), headers, body });
  }

  /** The emulator's state is the baseline. */
  async expectUnchanged(): Promise<void> {
    expect(await snapshot(this.world.url)).toEqual(this.baseline);
  }

  /** A 4xx with the nested error body (of `status` and `code` when given) that changed nothing. */
  async expectRefusedUnchanged(answer: RawAnswer, status?: number, code?: string): Promise<NestedError> {
    const error = expectClientError(answer, status, code);
    await this.expectUnchanged();
    return error;
  }

  /** Closes the world's emulator. */
  async close(): Promise<void> {
    await this.#world?.close();
  }
}

/** A world for the calling test file: built before its tests (`options` e.g. to capture the log), closed after. */
export function useHostileWorld(options: EmulatorOptions = {}): HostileWorld {
  const hostile = new HostileWorld();
  beforeAll(() => hostile.start(options));
  afterAll(() => hostile.close());
  return hostile;
}
