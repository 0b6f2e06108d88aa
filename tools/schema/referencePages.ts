/**
 * The reference pages: generated blocks between markers, `<!-- reference:<name> -->` and
 * `<!-- /reference:<name> -->`, in pages whose other text is written by hand. Only what lies
 * between a pair of markers is rewritten; a page that does not exist is created with a title and
 * its markers, and a pair missing from a page is appended to it under its heading.
 */
import type { BuiltSchema } from "./buildSchema";
import { GENERATED_NOTE, functionBlock, inputsTable, outputsTable } from "./referenceTables";
import { FUNCTIONS, FUNCTIONS_PAGE, RESOURCES } from "./sources";
import { token } from "./typeRegistry";

/** One generated block of a page. */
export interface Block {
  /** Its marker name: `inputs`, `outputs`, `getUsers`, ... */
  marker: string;
  /** The heading it is placed under when the page does not have its markers yet. */
  heading: string;
  body: string;
}

/** One page: its path, its title (for a new page) and its blocks. */
export interface Page {
  file: string;
  title: string;
  blocks: Block[];
}

/** Every reference page and its blocks, rendered from `built`. */
export function referencePages({ schema, changes }: BuiltSchema): Page[] {
  const resources = RESOURCES.map((resource): Page => {
    const spec = schema.resources[token(resource.kind)];
    return {
      file: resource.page,
      title: resource.kind,
      blocks: [
        {
          marker: "inputs",
          heading: "Inputs",
          body: inputsTable(spec, changes[token(resource.kind)], schema),
        },
        { marker: "outputs", heading: "Outputs", body: outputsTable(spec, schema) },
      ],
    };
  });
  const functions: Page = {
    file: FUNCTIONS_PAGE,
    title: "Data sources",
    blocks: [...FUNCTIONS]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((fn) => ({
        marker: fn.name,
        heading: fn.name,
        body: functionBlock(schema.functions[token(fn.name)], schema),
      })),
  };
  return [...resources, functions];
}

/** The page's text with its blocks written in: `existing` (undefined: a new page) updated. */
export function pageText(page: Page, existing: string | undefined): string {
  let text = existing ?? `# ${page.title}\n`;
  for (const block of page.blocks) {
    const open = `<!-- reference:${block.marker} -->`;
    const close = `<!-- /reference:${block.marker} -->`;
    const generated = `${open}\n\n${GENERATED_NOTE}\n\n${block.body}\n\n${close}`;
    const start = text.indexOf(open);
    const end = text.indexOf(close);
    if (start >= 0 && end > start) {
      text = text.slice(0, start) + generated + text.slice(end + close.length);
    } else if (start >= 0 || end >= 0) {
      throw new Error(`${page.file}: the markers of ${block.marker} are not a pair (${open} … ${close})`);
    } else {
      text = `${text.trimEnd()}\n\n## ${block.heading}\n\n${generated}\n`;
    }
  }
  return text;
}

/** The text between a block's markers in `text`, or undefined when it has none. */
export function blockText(text: string, marker: string): string | undefined {
  const open = `<!-- reference:${marker} -->`;
  const close = `<!-- /reference:${marker} -->`;
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  return start >= 0 && end > start ? text.slice(start + open.length, end) : undefined;
}
