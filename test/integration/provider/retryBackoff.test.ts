/**
 * The provider's backoff between retries follows `vmapi:pollScale`, as its polling does: against
 * an emulator whose clock runs 100 times faster, a 503 is retried after milliseconds, not the
 * half second and more a real API is given to recover. At scale 1 nothing changes.
 */
import { startTestEmulator } from "../../kit/emulator";
import type { RunningEmulator } from "../../../src/emulator";
import { accountOf } from "../../../src/provider/account/account";
import { providerContext } from "../../../src/provider/shared/context";
import { DEFAULT_RETRY_POLICY } from "../../../src/client";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
afterEach(() => emu.control.clearFaults());

/** The delays the account's client slept before its retries of a listing that failed twice with 503. */
async function retryDelays(pollScale: string): Promise<number[]> {
  await emu.control.addFaults([{ method: "GET", route: "/templates/getTemplates", status: 503, times: 2 }]);
  const slept: number[] = [];
  const context = providerContext({ timing: { sleep: async (ms: number) => void slept.push(ms) } });
  const account = accountOf({ apiKey: emu.keys.individual, baseUrl: emu.url, pollScale }, context);
  await account.client.templates.list();
  return slept;
}

test("retries: pollScale 0.01 → the backoff scaled alike (at most 1 % of the real cap)", async () => {
  const delays = await retryDelays("0.01");
  expect(delays).toHaveLength(2);
  for (const ms of delays) expect(ms).toBeLessThanOrEqual(DEFAULT_RETRY_POLICY.maxDelayMs * 0.01);
});

test("retries: pollScale 1 → the real API's backoff (at least three quarters of the first delay)", async () => {
  const delays = await retryDelays("1");
  expect(delays).toHaveLength(2);
  for (const ms of delays) expect(ms).toBeGreaterThanOrEqual(DEFAULT_RETRY_POLICY.initialDelayMs * 0.75);
});
