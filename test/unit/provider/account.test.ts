/**
 * `accountOf`: the calls of one account share one Account, and its one client, per context (a
 * refresh of 1,000 resources built 1,000 clients, each with its own HTTP stack), and anything its
 * client is built from gives another one: the key, the base URL, the poll scale, the
 * environment's timeout, the context; a client with overrides is one of its own. Nothing is sent.
 */
import { accountDigest } from "../../../src/provider/account/account";
import { accountOf } from "../../../src/provider/account/accounts";
import { providerContext } from "../../../src/provider/account/context";
import { referenceContext } from "../../../src/provider/shared/references";

const settings = { apiKey: "key-a", baseUrl: "http://127.0.0.1:9" };

describe("accountOf", () => {
  const saved = process.env.VMAPI_TIMEOUT_MS;
  afterEach(() => {
    if (saved === undefined) delete process.env.VMAPI_TIMEOUT_MS;
    else process.env.VMAPI_TIMEOUT_MS = saved;
  });

  it("accountOf: the same account twice in one context → one Account, one client", () => {
    const context = providerContext();
    expect(accountOf({ ...settings }, context)).toBe(accountOf({ ...settings }, context));
    expect(accountOf({ ...settings }, context).client).toBe(accountOf({ ...settings }, context).client);
  });

  it("accountOf: another key, base URL, poll scale or context → another client", () => {
    const context = providerContext();
    const first = accountOf(settings, context).client;
    expect(accountOf({ ...settings, apiKey: "key-b" }, context).client).not.toBe(first);
    expect(accountOf({ ...settings, baseUrl: "http://127.0.0.1:10" }, context).client).not.toBe(first);
    expect(accountOf({ ...settings, pollScale: "0.5" }, context).client).not.toBe(first);
    expect(accountOf(settings, providerContext()).client).not.toBe(first);
  });

  it("accountOf: VMAPI_TIMEOUT_MS changed → a client with the new timeout", () => {
    const context = providerContext();
    delete process.env.VMAPI_TIMEOUT_MS;
    const before = accountOf(settings, context).client;
    process.env.VMAPI_TIMEOUT_MS = "1234";
    const after = accountOf(settings, context).client;
    expect(after).not.toBe(before);
    expect(after.timeoutMs).toBe(1234);
  });

  it("clientWith: overrides → a client of its own, never the shared one", () => {
    const context = providerContext();
    const shared = accountOf(settings, context).client;
    const tuned = accountOf(settings, context).clientWith({ maxRetries: 0 });
    expect(tuned).not.toBe(shared);
    expect(tuned.maxRetries).toBe(0);
    expect(accountOf(settings, context).client).toBe(shared);
  });

  it("Account.key: one digest of the base URL and key names the account everywhere: the lookups' scope, the request budget; never the key", () => {
    const context = providerContext();
    const account = accountOf(settings, context);
    expect(account.key).toBe(accountDigest(settings.baseUrl, settings.apiKey));
    expect(referenceContext(account).scope).toBe(account.key);
    expect([...context.rateLimiters.keys()]).toEqual([account.key]);
    expect(account.key).not.toContain(settings.apiKey);
    expect(accountDigest(settings.baseUrl, "key-b")).not.toBe(account.key);
    expect(accountDigest("http://127.0.0.1:10", settings.apiKey)).not.toBe(account.key);
  });

  it("accountOf: a bad setting → ConfigurationError naming it, with or without an account made before", () => {
    const context = providerContext();
    expect(accountOf(settings, context).client).toBeDefined();
    expect(() => accountOf({ ...settings, pollScale: "2" }, context).client).toThrow(
      /vmapi:pollScale must be/,
    );
  });
});
