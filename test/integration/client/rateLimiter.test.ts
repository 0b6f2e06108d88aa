/**
 * Many callers of one account against a throttling emulator, on virtual time (VirtualTime:
 * timers that fire only when every caller is asleep, queued or done). Nothing waits for real.
 */
import { VmApiClient } from "../../../src/client/client";
import { RateLimitError } from "../../../src/client/core/errors";
import { RateLimiter, type ThrottleNotice } from "../../../src/client/core/rateLimiter";
import { startTestEmulator } from "../../kit/emulator";
import { VirtualTime } from "../../kit/virtualTime";
import type { RunningEmulator } from "../../../src/emulator";

const CALLERS = 50;
/** The provider's retries per request (PROVIDER_MAX_RETRIES). */
const MAX_RETRIES = 6;

let emu: RunningEmulator;
beforeEach(async () => {
  emu = await startTestEmulator({ rateLimit: 5, rateBurst: 5 });
});
afterEach(() => emu.close());

function client(time: VirtualTime, rateLimiter?: RateLimiter): VmApiClient {
  return new VmApiClient({
    apiKey: emu.keys.individual,
    baseUrl: emu.url,
    env: {},
    maxRetries: MAX_RETRIES,
    sleep: time.sleep,
    now: time.now,
    random: () => 0.5,
    rateLimiter,
  });
}

const createScript = (c: VmApiClient, i: number) =>
  c.scripts.create({ scriptName: `s-${i}`, scriptText: `#!/bin/bash\necho ${i}\n` });

it(`${CALLERS} concurrent creates, each client its own, sharing one limiter → all succeed, each script once, refusals counted`, async () => {
  const time = new VirtualTime(emu);
  const notices: ThrottleNotice[] = [];
  const limiter = new RateLimiter({
    sleep: time.sleep,
    now: time.now,
    onThrottle: (n) => notices.push(n),
  });
  const results = await time.run(
    Array.from({ length: CALLERS }, (_, i) => createScript(client(time, limiter), i)),
    () => limiter.inFlight,
  );
  expect(results.filter((r) => r.status === "rejected")).toEqual([]);
  const dump = await emu.control.state();
  expect(dump.scripts.map((s) => s.name).sort()).toEqual(
    Array.from({ length: CALLERS }, (_, i) => `s-${i}`).sort(),
  );
  expect(dump.rateLimit.served).toBe(CALLERS);
  expect(dump.rateLimit.refused).toBeGreaterThan(0);
  expect(notices.length).toBeGreaterThan(0);
  expect(limiter.ratePerSecond).toBeLessThanOrEqual(10);
});

it(`without a shared limiter, the same ${CALLERS} creates each back off alone → some run out of retries`, async () => {
  const time = new VirtualTime(emu);
  const results = await time.run(Array.from({ length: CALLERS }, (_, i) => createScript(client(time), i)));
  const failed = results.filter((r) => r.status === "rejected");
  expect(failed.length).toBeGreaterThan(0);
  for (const f of failed) expect((f as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitError);
});
