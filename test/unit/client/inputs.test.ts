import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { VmApiClient } from "../../../src/client/client";
import { ResponseValidationError, ValidationError, VmApiError } from "../../../src/client/errors";
import { parseBody } from "../../../src/client/http";
import { collect, Paginator } from "../../../src/client/pagination";
import { filtersToQuery } from "../../../src/client/filterQuery";
import { MACHINE_FILTER_FIELDS } from "../../../src/contract/listFilters";
import { ResourceDelegationResponseSchema, ScriptTextSchema } from "../../../src/contract/schemas";
import { resolveScriptText } from "../../../src/client/scripts";
import { requireId, segment } from "../../../src/client/validate";

describe("filtersToQuery", () => {
  it("filtersToQuery: booleans, numbers and null → strings, null as 'null'", () => {
    const query = filtersToQuery(
      { state: "off", cpus: 4, updatesPending: false, scriptId: null, gpu: undefined },
      MACHINE_FILTER_FIELDS,
    );
    expect(query).toEqual({ state: "off", cpus: "4", updatesPending: "false", scriptId: "null" });
  });

  it("filtersToQuery: unknown filter (id instead of machineId) → ValidationError listing the filters", () => {
    expect(() => filtersToQuery({ id: "ps1" }, MACHINE_FILTER_FIELDS)).toThrow(
      /unknown filter id; filters are: machineId/,
    );
  });

  it("filtersToQuery: object value → ValidationError", () => {
    expect(() => filtersToQuery({ name: {} as never }, MACHINE_FILTER_FIELDS)).toThrow(ValidationError);
  });
});

describe("ids", () => {
  it("segment: reserved characters → encoded", () => {
    expect(segment("a/b?c#d")).toBe("a%2Fb%3Fc%23d");
  });

  it.each(["", " ", ".", "..", undefined, 42])("requireId: %p → ValidationError", (id) => {
    expect(() => requireId(id, "machineId")).toThrow(/machineId must be a non-empty id/);
  });
});

describe("Paginator", () => {
  const pagesOf =
    (all: number[]) =>
    async ({ limit, skip }: { limit: number; skip: number }) =>
      all.slice(skip, skip + limit).map((n) => ({ id: String(n) }));

  it("Paginator: 2,500 items in pages of 1,000 → every item once, three requests", async () => {
    const all = Array.from({ length: 2500 }, (_, i) => i);
    const fetch = jest.fn(pagesOf(all));
    const items = await new Paginator(fetch, 1000, (x) => x.id).collect({ max: 10_000 });
    expect(items).toHaveLength(2500);
    expect(fetch.mock.calls.map((c) => c[0])).toEqual([
      { limit: 1000, skip: 0 },
      { limit: 1000, skip: 1000 },
      { limit: 1000, skip: 2000 },
    ]);
  });

  it("Paginator: exact multiple of the page size → one extra empty page ends it", async () => {
    const fetch = jest.fn(pagesOf([1, 2, 3, 4]));
    const pages: unknown[] = [];
    for await (const page of new Paginator(fetch, 2, (x) => x.id).pages()) pages.push(page);
    expect(pages).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("Paginator: an item repeated at a page boundary → yielded once", async () => {
    const pages = [[{ id: "a" }, { id: "b" }], [{ id: "b" }, { id: "c" }], [{ id: "d" }]];
    let i = 0;
    const items = await collect(
      new Paginator(
        async () => pages[i++],
        2,
        (x) => x.id,
      ),
      { max: 10 },
    );
    expect(items.map((x) => x.id)).toEqual(["a", "b", "c", "d"]);
  });

  it("Paginator: server ignoring skip → ResponseValidationError instead of an endless loop", async () => {
    const page = [{ id: "a" }, { id: "b" }];
    await expect(
      collect(
        new Paginator(
          async () => page,
          2,
          (x) => x.id,
        ),
        { max: 100 },
      ),
    ).rejects.toThrow(ResponseValidationError);
  });

  it("collect: more than max → error, and no further page is fetched", async () => {
    const fetch = jest.fn(pagesOf(Array.from({ length: 50 }, (_, i) => i)));
    const error = await collect(new Paginator(fetch, 10, (x) => x.id), { max: 15 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VmApiError);
    expect((error as VmApiError).code).toBe("collect_limit_exceeded");
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});

describe("parseBody", () => {
  const req = { method: "GET", path: "/scripts/getScriptText" };
  it("parseBody: no schema → any body accepted (204s)", () => {
    expect(parseBody("", undefined, req, 204)).toBeUndefined();
    expect(parseBody("{}", undefined, req, 200)).toBeUndefined();
  });

  it("parseBody: JSON string for getScriptText → the text", () => {
    expect(parseBody('"echo hi\\n"', ScriptTextSchema, req, 200)).toBe("echo hi\n");
  });

  it("parseBody: delegation as object or one-element array → the object", () => {
    const d = {
      id: 1,
      delegation: { machine: { ids: ["ps1"] } },
      isEnabled: true,
      accessTokenId: "tok",
      dtCreated: "2026-01-01T00:00:00.000Z",
    };
    const r = { method: "POST", path: "/resourceDelegations/create" };
    expect(parseBody(JSON.stringify(d), ResourceDelegationResponseSchema, r, 200)).toEqual(d);
    expect(parseBody(JSON.stringify([d]), ResourceDelegationResponseSchema, r, 200)).toEqual(d);
  });

  it("parseBody: wrong type → ResponseValidationError naming the request", () => {
    expect(() => parseBody("42", ScriptTextSchema, req, 200)).toThrow(
      /response of GET \/scripts\/getScriptText does not match the contract/,
    );
    expect(() => parseBody("not json", ScriptTextSchema, req, 200)).toThrow(/is not JSON/);
    expect(() => parseBody("", ScriptTextSchema, req, 200)).toThrow(/the body is empty/);
  });
});

describe("resolveScriptText", () => {
  const dir = mkdtempSync(join(tmpdir(), "vmapi-client-"));
  const file = (name: string, bytes: number) => {
    const path = join(dir, name);
    writeFileSync(path, "x".repeat(bytes));
    return path;
  };

  it("resolveScriptText: file of exactly 16 KB → its text", async () => {
    await expect(resolveScriptText(undefined, file("ok.sh", 16384))).resolves.toHaveLength(16384);
  });

  it("resolveScriptText: file of 16 KB + 1 byte → ValidationError with the size", async () => {
    await expect(resolveScriptText(undefined, file("big.sh", 16385))).rejects.toThrow(
      /is 16385 bytes; the limit is 16384 bytes/,
    );
  });

  it("resolveScriptText: text over 16 KB in UTF-8 bytes → ValidationError with the size", async () => {
    await expect(resolveScriptText("é".repeat(8193), undefined)).rejects.toThrow(/scriptText is 16386 bytes/);
  });

  it("resolveScriptText: both or neither given → ValidationError", async () => {
    await expect(resolveScriptText("a", "b")).rejects.toThrow(/not both/);
    await expect(resolveScriptText(undefined, undefined)).rejects.toThrow(/is required/);
  });

  it("resolveScriptText: missing file → ValidationError with the code", async () => {
    await expect(resolveScriptText(undefined, join(dir, "absent.sh"))).rejects.toThrow(
      /cannot be read \(ENOENT\)/,
    );
  });
});

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
