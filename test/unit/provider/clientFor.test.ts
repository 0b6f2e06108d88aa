/**
 * `clientFor`: the calls of one account share one client per context (a refresh of 1,000
 * resources built 1,000 clients, each with its own HTTP stack), and anything a client is built
 * from gives another one: the account, the poll scale, the environment's timeout, the context,
 * or overrides. Nothing is sent.
 */
import { clientFor } from "../../../src/provider/shared/settings";
import { providerContext } from "../../../src/provider/shared/context";

const settings = { apiKey: "key-a", baseUrl: "http://127.0.0.1:9" };

describe("clientFor", () => {
  const saved = process.env.VMAPI_TIMEOUT_MS;
  afterEach(() => {
    if (saved === undefined) delete process.env.VMAPI_TIMEOUT_MS;
    else process.env.VMAPI_TIMEOUT_MS = saved;
  });

  it("clientFor: the same account twice in one context → one client", () => {
    const context = providerContext();
    expect(clientFor({ ...settings }, context)).toBe(clientFor({ ...settings }, context));
  });

  it("clientFor: another key, base URL, poll scale or context → another client", () => {
    const context = providerContext();
    const first = clientFor(settings, context);
    expect(clientFor({ ...settings, apiKey: "key-b" }, context)).not.toBe(first);
    expect(clientFor({ ...settings, baseUrl: "http://127.0.0.1:10" }, context)).not.toBe(first);
    expect(clientFor({ ...settings, pollScale: "0.5" }, context)).not.toBe(first);
    expect(clientFor(settings, providerContext())).not.toBe(first);
  });

  it("clientFor: VMAPI_TIMEOUT_MS changed → a client with the new timeout", () => {
    const context = providerContext();
    delete process.env.VMAPI_TIMEOUT_MS;
    const before = clientFor(settings, context);
    process.env.VMAPI_TIMEOUT_MS = "1234";
    const after = clientFor(settings, context);
    expect(after).not.toBe(before);
    expect(after.timeoutMs).toBe(1234);
  });

  it("clientFor: overrides → a client of its own, never the shared one", () => {
    const context = providerContext();
    const shared = clientFor(settings, context);
    const tuned = clientFor(settings, context, { maxRetries: 0 });
    expect(tuned).not.toBe(shared);
    expect(tuned.maxRetries).toBe(0);
    expect(clientFor(settings, context)).toBe(shared);
  });

  it("clientFor: a bad setting → ConfigurationError naming it, with or without a client made before", () => {
    const context = providerContext();
    clientFor(settings, context);
    expect(() => clientFor({ ...settings, pollScale: "2" }, context)).toThrow(/vmapi:pollScale must be/);
  });
});
