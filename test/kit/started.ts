/**
 * What a test file (or a describe block) starts once for its tests and closes after them: an
 * emulator, a provider kit, a harness, a real-engine context. Written once here, so a file names
 * it in one line instead of a `let`, a `beforeAll` that assigns it and an `afterAll` that closes it.
 */

/**
 * Registers the hooks of the current block: `start` before its first test, the started thing's
 * `close` after its last (whether the tests passed or not; nothing when the start failed). What
 * it returns stands for the started thing from the block's `beforeAll` on: it forwards every read
 * to it (its methods bound to it), so the tests and the helpers a file declares use it as they
 * would the thing itself. A `beforeAll` declared after this call sees it started; an `afterAll`
 * declared after it runs after the close.
 */
export function useStarted<T extends { close(): unknown }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as T, {
    get: (_, key) => {
      if (started === undefined)
        throw new Error(`read of ${String(key)} outside the tests: it starts in beforeAll`);
      const value: unknown = Reflect.get(started, key, started);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(started) : value;
    },
  });
}
