/**
 * The client itself: settings read at construction, the key never shown (src/client/client.ts).
 */
import { inspect } from "node:util";
import { VmApiClient } from "../../../src/client/client";

describe("VmApiClient secrecy", () => {
  const key = "very-secret-api-key-123";
  it("VmApiClient: util.inspect and JSON → never show the key", () => {
    const client = new VmApiClient({ apiKey: key, baseUrl: "http://127.0.0.1:9", env: {} });
    for (const text of [
      inspect(client, { depth: 10, showHidden: true }),
      inspect(client.machines, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      JSON.stringify(client.scripts),
    ]) {
      expect(text).not.toContain(key);
    }
    expect(inspect(client)).toContain("127.0.0.1:9");
  });

  it("VmApiClient: no key anywhere → ConfigurationError before any request", () => {
    expect(() => new VmApiClient({ env: {} })).toThrow(/no API key/);
  });

  it("VmApiClient: settings from env → read at construction", () => {
    const client = new VmApiClient({ env: { VMAPI_API_KEY: key, VMAPI_BASE_URL: "http://h:1" } });
    expect(client.baseUrl).toBe("http://h:1");
    expect(client.maxRetries).toBe(3);
  });
});
