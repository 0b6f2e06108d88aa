import { DEFAULT_BASE_URL } from "../../../../src/contract/constants";
import { ConfigurationError } from "../../../../src/client/core/errors";
import {
  DEFAULT_CREATE_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  resolveSettings,
} from "../../../../src/client/core/settings";

describe("resolveSettings", () => {
  it("resolveSettings: arguments given → used over every variable", () => {
    const env = { VMAPI_API_KEY: "env-key", VMAPI_BASE_URL: "http://env", PAPERSPACE_API_KEY: "ps-key" };
    expect(
      resolveSettings({ apiKey: "arg-key", baseUrl: "http://arg:1/", timeoutMs: 5, maxRetries: 0 }, env),
    ).toEqual({
      apiKey: "arg-key",
      baseUrl: "http://arg:1",
      timeoutMs: 5,
      maxRetries: 0,
      createTimeoutMs: DEFAULT_CREATE_TIMEOUT_MS,
    });
  });

  it("resolveSettings: no arguments → VMAPI_* before PAPERSPACE_*", () => {
    const env = {
      VMAPI_API_KEY: "vm-key",
      VMAPI_BASE_URL: "http://vm.example",
      PAPERSPACE_API_KEY: "ps-key",
      PAPERSPACE_API_HOST: "http://ps.example",
    };
    expect(resolveSettings({}, env)).toMatchObject({ apiKey: "vm-key", baseUrl: "http://vm.example" });
  });

  it("resolveSettings: only PAPERSPACE_* → used", () => {
    const env = { PAPERSPACE_API_KEY: "ps-key", PAPERSPACE_API_HOST: "https://ps.example/" };
    expect(resolveSettings({}, env)).toMatchObject({ apiKey: "ps-key", baseUrl: "https://ps.example" });
  });

  it("resolveSettings: empty values → skipped like missing ones", () => {
    const env = { VMAPI_API_KEY: " ", PAPERSPACE_API_KEY: "ps-key", VMAPI_BASE_URL: "" };
    expect(resolveSettings({ apiKey: "" }, env)).toMatchObject({
      apiKey: "ps-key",
      baseUrl: DEFAULT_BASE_URL,
    });
  });

  it("resolveSettings: no base URL anywhere → https://api.paperspace.io and the defaults", () => {
    expect(resolveSettings({ apiKey: "k" }, {})).toEqual({
      apiKey: "k",
      baseUrl: "https://api.paperspace.io",
      timeoutMs: DEFAULT_TIMEOUT_MS,
      maxRetries: DEFAULT_MAX_RETRIES,
      createTimeoutMs: DEFAULT_CREATE_TIMEOUT_MS,
    });
  });

  it("resolveSettings: VMAPI_TIMEOUT_MS → the timeout when no argument gives one", () => {
    const env = { VMAPI_TIMEOUT_MS: "1500" };
    expect(resolveSettings({ apiKey: "k" }, env).timeoutMs).toBe(1500);
    expect(resolveSettings({ apiKey: "k", timeoutMs: 7 }, env).timeoutMs).toBe(7);
  });

  it.each(["0", "1.5", "fast", "-3"])(
    "resolveSettings: VMAPI_TIMEOUT_MS %s → ConfigurationError naming the variable",
    (value) => {
      expect(() => resolveSettings({ apiKey: "k" }, { VMAPI_TIMEOUT_MS: value })).toThrow(
        `VMAPI_TIMEOUT_MS must be an integer ≥ 1 (got "${value}")`,
      );
    },
  );

  it("resolveSettings: no key anywhere → ConfigurationError naming the variables", () => {
    expect(() => resolveSettings({}, {})).toThrow(ConfigurationError);
    expect(() => resolveSettings({}, {})).toThrow(/VMAPI_API_KEY.*PAPERSPACE_API_KEY/);
  });

  it.each([
    [{ baseUrl: "not a url" }, /baseUrl must be an absolute/],
    [{ baseUrl: "ftp://x" }, /http or https/],
    [{ timeoutMs: 0 }, /timeoutMs/],
    [{ createTimeoutMs: 0 }, /createTimeoutMs/],
    [{ maxRetries: -1 }, /maxRetries/],
    [{ maxRetries: 1.5 }, /maxRetries/],
  ])("resolveSettings: bad setting %p → ConfigurationError", (input, message) => {
    expect(() => resolveSettings({ apiKey: "k", ...input }, {})).toThrow(message);
  });

  it("resolveSettings: a refusal → never contains the key", () => {
    const refusal = refusalOf(() => resolveSettings({ apiKey: "super-secret-key", baseUrl: "nope" }, {}));
    expect(refusal).toBeInstanceOf(ConfigurationError);
    expect(refusal.message).not.toContain("super-secret-key");
  });
});

/** The error `action` throws; fails the test when it returns instead. */
function refusalOf(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a refusal, but the call returned");
}
