/**
 * The reference pages' generated blocks: written between their markers only, so the hand-written
 * text of a page survives every `npm run schema:update`; and what `schema:check` says is stale.
 */
import { differences, jsonDifferences } from "../../../tools/schema/differences";
import { blockText, pageText, type Page } from "../../../tools/schema/referencePages";

const page: Page = {
  file: "docs/resources/thing.md",
  title: "Thing",
  blocks: [
    { marker: "inputs", heading: "Inputs", body: "| a | b |" },
    { marker: "outputs", heading: "Outputs", body: "| c | d |" },
  ],
};

describe("pageText", () => {
  test("pageText: no page yet → a title, then each block under its heading between its markers", () => {
    const text = pageText(page, undefined);
    expect(text.startsWith("# Thing\n\n## Inputs\n\n<!-- reference:inputs -->")).toBe(true);
    expect(blockText(text, "inputs")).toContain("| a | b |");
    expect(blockText(text, "outputs")).toContain("| c | d |");
    expect(text.indexOf("## Outputs")).toBeGreaterThan(text.indexOf("<!-- /reference:inputs -->"));
  });

  test("pageText: a page with its markers → only the text between them changes", () => {
    const written =
      "# Thing\n\nProse before.\n\n<!-- reference:inputs -->\nold\n<!-- /reference:inputs -->\n\nProse between.\n\n" +
      "<!-- reference:outputs --><!-- /reference:outputs -->\n\nProse after.\n";
    const text = pageText(page, written);
    for (const prose of ["# Thing\n\nProse before.\n\n", "\n\nProse between.\n\n", "\n\nProse after.\n"]) {
      expect(text).toContain(prose);
    }
    expect(text).not.toContain("old");
    expect(blockText(text, "outputs")).toContain("| c | d |");
    expect(pageText(page, text)).toBe(text);
  });

  test("pageText: a page without a block's markers → the block is appended under its heading", () => {
    const text = pageText(page, "# Thing\n\nProse only.\n");
    expect(text).toMatch(/^# Thing\n\nProse only\.\n\n## Inputs\n\n<!-- reference:inputs -->/);
    expect(text).toMatch(/## Outputs\n\n<!-- reference:outputs -->[\s\S]*<!-- \/reference:outputs -->\n$/);
  });

  test("pageText: an opening marker without its closing one → an error naming the page", () => {
    expect(() => pageText(page, "# Thing\n\n<!-- reference:inputs -->\n")).toThrow(
      /docs\/resources\/thing\.md: the markers of inputs are not a pair/,
    );
  });
});

describe("differences", () => {
  test("differences: the schema → the JSON paths that differ", () => {
    const actual = { resources: { m: { size: { type: "number" }, gone: {} } } };
    const expected = { resources: { m: { size: { type: "integer" }, added: {} } } };
    expect(jsonDifferences(actual, expected, "")).toEqual([
      "resources.m.added: added",
      "resources.m.gone: removed",
      'resources.m.size.type: "number" → "integer"',
    ]);
    expect(differences("plugin/schema.json", undefined, "{}")).toEqual(["missing"]);
  });

  test("differences: a page → the blocks that are stale", () => {
    const expected = pageText(page, undefined);
    const actual = expected.replace("| c | d |", "| c | e |");
    expect(differences(page.file, actual, expected)).toEqual(["block reference:outputs is stale"]);
  });
});
