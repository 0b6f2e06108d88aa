#!/usr/bin/env node
/**
 * `vmapi-review`: reads `pulumi preview --json` (a file, or stdin) and writes the review as
 * Markdown on stdout, for a pull-request comment.
 *
 *   pulumi preview --json --show-sames > preview.json
 *   vmapi-review preview.json > review.md
 *   vmapi-review preview.json --fail-on destroy --fail-on cost-increase=100   # CI gates: exit 1
 *   vmapi-review preview.json --prices prices.json                            # your own prices
 *   vmapi-review preview.json --details preview.txt > comment.md              # the whole PR comment
 *
 * Exit codes: 0 reviewed, 1 a `--fail-on` gate failed (the Markdown is still written), 2 bad
 * arguments or input (nothing written on stdout).
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import {
  parsePriceList,
  parseFailOn,
  reviewPreview,
  ReviewUsageError,
  type FailOn,
  type PriceList,
} from "./index";
import { prComment } from "./comment";

const USAGE = `Usage: vmapi-review [PREVIEW_JSON | -] [--prices FILE] [--fail-on destroy|cost-increase=<dollars per month>]... [--details PREVIEW_LOG]
Reads \`pulumi preview --json\` (a file, or stdin when none or -) and writes the review as Markdown.
  --prices FILE      a JSON price list { name, machineTypes: { <type>: { hourly, monthly } }, storage: [{ upToGb, monthly }] }
  --fail-on GATE     exit 1 when a disk would be destroyed (destroy) or the monthly cost grows by more than the amount
  --details FILE     the preview's text output: write the whole pull-request comment (pulumi/actions' layout)
`;

/** Where the CLI reads and writes, so tests run it in-process. */
export interface CliIo {
  readFile(path: string): string;
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_IO: CliIo = {
  readFile: (path) => fs.readFileSync(path, "utf8"),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

interface Args {
  input?: string;
  prices?: string;
  failOn: FailOn[];
  details?: string;
  help: boolean;
}

function parse(argv: string[]): Args {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        prices: { type: "string" },
        "fail-on": { type: "string", multiple: true },
        details: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (err) {
    throw new ReviewUsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1)
    throw new ReviewUsageError(`one preview at a time (got ${positionals.length} files)`);
  return {
    input: positionals[0],
    prices: values.prices,
    failOn: (values["fail-on"] ?? []).flatMap(parseFailOn),
    details: values.details,
    help: values.help === true,
  };
}

function read(io: CliIo, path: string, what: string): string {
  try {
    return io.readFile(path);
  } catch (err) {
    throw new ReviewUsageError(
      `cannot read ${what} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

/** Runs the CLI on `argv` (without node and the script); resolves to the exit code. */
export async function runReviewCli(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  try {
    const args = parse(argv);
    if (args.help) {
      io.stdout(USAGE);
      return 0;
    }
    const prices: PriceList | undefined = args.prices
      ? parsePriceList(read(io, args.prices, "the price file"), args.prices)
      : undefined;
    const text =
      args.input === undefined || args.input === "-"
        ? await io.readStdin()
        : read(io, args.input, "the preview");
    const result = reviewPreview(text, { prices, failOn: args.failOn });
    io.stdout(
      args.details === undefined
        ? result.markdown
        : prComment(text, result.markdown, read(io, args.details, "the preview log")),
    );
    for (const failure of result.failures) io.stderr(`vmapi-review: ${failure}\n`);
    return result.failures.length > 0 ? 1 : 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr(`vmapi-review: ${message}\n${err instanceof ReviewUsageError ? USAGE : ""}`);
    return 2;
  }
}

if (require.main === module) {
  void runReviewCli(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
