/**
 * One request budget per account in the provider's process: every client an `Account` builds for
 * an account shares the context's limiter for it, and the throttling is reported once per
 * episode, not once per refused request.
 */
import { inspect } from "node:util";
import { providerContext } from "../../../src/provider/account/context";
import { rateLimiterFor } from "../../../src/provider/account/rateLimiters";
import { accountDigest } from "../../../src/provider/account/account";
import { accountOf } from "../../../src/provider/account/accounts";
import { startTestEmulator } from "../../kit/emulator";
import { VirtualTime } from "../../kit/virtualTime";
import { providersOn, useProviderKit } from "./providerTestKit";

const kit = useProviderKit();

describe("rateLimiterFor", () => {
  it("same base URL and key → one limiter; another key or URL → another; the key is nowhere in the context", () => {
    const context = providerContext();
    const limiterOf = (url: string, key: string) => rateLimiterFor(context, accountDigest(url, key), url);
    const a = limiterOf("http://a.example", "secret-key-1");
    expect(limiterOf("http://a.example", "secret-key-1")).toBe(a);
    expect(limiterOf("http://a.example", "secret-key-2")).not.toBe(a);
    expect(limiterOf("http://b.example", "secret-key-1")).not.toBe(a);
    expect(context.rateLimiters.size).toBe(3);
    const shown = inspect(context, { depth: 5 }) + JSON.stringify([...context.rateLimiters.keys()]);
    expect(shown).not.toContain("secret-key");
  });

  it("accountOf: every client of one account in a context → requests paced by the same limiter", async () => {
    const context = providerContext({ timing: kit.context.timing });
    const settings = { apiKey: kit.keys.individual, baseUrl: kit.url };
    const clients = [
      accountOf(settings, context).client,
      accountOf(settings, context).clientWith({ maxRetries: 1 }),
      accountOf({ ...settings, apiKey: kit.keys.teamAdmin }, context).client,
    ];
    expect(clients).toHaveLength(3);
    expect(context.rateLimiters.size).toBe(2);
  });
});

it("30 Script creates at once against an emulator limited to 5/s → all created; progress says once per slow-down that the account is throttled and how long it waits", async () => {
  const emu = await startTestEmulator({ rateLimit: 5, rateBurst: 5 });
  try {
    const time = new VirtualTime(emu);
    const progress: string[] = [];
    const context = providerContext({
      timing: { sleep: time.sleep, now: time.now, random: () => 0.5 },
      progress: (line) => progress.push(line),
    });
    const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
    const limiter = rateLimiterFor(context, accountDigest(emu.url, emu.keys.individual), emu.url);
    const script = providersOn(context, settings).script;
    const results = await time.run(
      Array.from({ length: 30 }, (_, i) =>
        script.create({ name: `fleet-${i}`, scriptText: `#!/bin/bash\necho ${i}\n` }, settings),
      ),
      () => limiter.inFlight,
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const dump = await emu.control.state();
    expect(dump.scripts).toHaveLength(30);
    expect(dump.rateLimit.refused).toBeGreaterThan(0);
    const throttled = progress.filter((line) => line.includes("throttling this account"));
    expect(throttled[0]).toMatch(
      new RegExp(
        `^vmapi: the API at ${emu.url} is throttling this account \\(HTTP 429\\): every request waits 1\\.0 s, then goes at ≤ [\\d.]+ requests/s`,
      ),
    );
    // One line per slow-down, not one per refused request; and no retry line per 429.
    expect(throttled.length).toBeLessThan(dump.rateLimit.refused);
    expect(progress.filter((line) => / retry \d+ of /.test(line))).toEqual([]);
    for (const key of Object.values(emu.keys)) expect(progress.join("\n")).not.toContain(key);
  } finally {
    await emu.close();
  }
});
