/**
 * `vmapi-review` as a function: `pulumi preview --json` in, Markdown for a pull-request comment
 * out, with the CI gates it failed. Pure: no API call, no file read, no Pulumi.
 */
import { DEFAULT_PRICE_LIST, type PriceList } from "../contract/prices";
import { failedGates, type FailOn } from "./gates";
import { renderMarkdown } from "./markdown";
import { buildModel } from "./model";
import { parsePreview } from "./previewJson";

export {
  DEFAULT_PRICE_LIST,
  HOURS_PER_MONTH,
  type PriceList,
  type MachineTypePrice,
  type StorageTier,
} from "../contract/prices";
export { parsePriceList, PriceFileError } from "./priceFile";
export { parseFailOn, ReviewUsageError, type FailOn } from "./gates";
export { PreviewFormatError } from "./previewJson";
export { PriceListError } from "./cost";

/** Options of {@link reviewPreview}. */
export interface ReviewOptions {
  /** The prices to cost machines with; default {@link DEFAULT_PRICE_LIST}, the emulator's. */
  prices?: PriceList;
  /** CI gates; a gate that fails is listed in the Markdown and in `failures`. */
  failOn?: readonly FailOn[];
}

/** What {@link reviewPreview} returns. */
export interface ReviewResult {
  /** The review, Markdown for a pull-request comment. */
  markdown: string;
  /** One sentence per `failOn` gate that fails; empty when every gate passes. */
  failures: string[];
  /** Disks the change destroys (replaced or deleted machines). */
  destroyedDisks: number;
  /** The machines' monthly cost before and after the change, in dollars (costs known after `up` left out). */
  monthlyCost: { before: number; after: number };
}

/**
 * Reviews a preview: the providers' warnings, per machine what happens (create, adopt, replace,
 * update in place, start, stop, delete) and which inputs force a replacement, the disks destroyed
 * and public IPs released, the scripts machines run at their next boot, and the hourly and
 * monthly cost before and after, for each machine and in total.
 *
 * @param preview - the output of `pulumi preview --json` (text or parsed); with `--show-sames`
 *   the totals are the whole stack's, otherwise those of the machines the preview lists
 * @throws PreviewFormatError when `preview` is not that output; PriceListError when the price
 *   list has no price for a machine's type
 *
 * @example
 * ```ts
 * const { markdown, failures } = reviewPreview(fs.readFileSync("preview.json", "utf8"), {
 *   failOn: parseFailOn("destroy"),
 * });
 * ```
 */
export function reviewPreview(preview: string | unknown, options: ReviewOptions = {}): ReviewResult {
  const model = buildModel(parsePreview(preview), options.prices ?? DEFAULT_PRICE_LIST);
  const failures = failedGates(model, options.failOn ?? []);
  const total = (costs: (typeof model.machines)[number]["before"][]) =>
    costs.reduce((sum, c) => sum + (c && "monthly" in c ? c.monthly : 0), 0);
  return {
    markdown: renderMarkdown(model, failures),
    failures,
    destroyedDisks: model.disks.length,
    monthlyCost: {
      before: total(model.machines.map((m) => m.before)),
      after: total(model.machines.map((m) => m.after)),
    },
  };
}
