/**
 * The async page iterator and its bounded collect (src/client/core/pagination.ts).
 */
import { ResponseValidationError, VmApiError } from "../../../../src/client/core/errors";
import { collect, Paginator } from "../../../../src/client/core/pagination";

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
