#!/usr/bin/env node
/**
 * `vmapi-recover-pending`: repairs the pending creates a killed `pulumi up` left in a stack.
 *
 *   pulumi cancel --yes                  # the killed run's lock, if the backend kept one
 *   pulumi stack export > stack.json     # the export to repair (secrets encrypted)
 *   pulumi stack export --show-secrets | npx vmapi-recover-pending stack.json > repaired.json
 *   pulumi stack import --file repaired.json
 *   pulumi refresh --yes && pulumi up
 *
 * Each pending create is looked up in the account it was made in, with its provider's key as the
 * state holds it (stackAccounts.ts): the export on stdin shows the secrets, is read in memory and
 * never written; what is written (stdout) is the export named as the argument with the repairs,
 * its secrets as encrypted as they came. Settings a provider lacks come from the environment
 * (VMAPI_API_KEY, VMAPI_BASE_URL), as the provider's own do. Without an argument, stdin is the
 * export to repair, and refused if it shows a secret (the output would). What happened to each
 * pending create goes to stderr.
 */
import * as fs from "fs";
import { accountFinders } from "./accountFinders";
import { resolvePendingCreates } from "./pendingCreates";
import { holdsShownSecret, type ExportedStack } from "./stackExport";

const USAGE =
  "Usage: pulumi stack export --show-secrets | vmapi-recover-pending stack.json > repaired.json\n" +
  "  stack.json: `pulumi stack export` of the same stack (secrets encrypted), the export to repair\n";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** `text` as an export; `what` names it in the error. */
function parseExport(text: string, what: string): ExportedStack {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof (parsed as ExportedStack | undefined)?.deployment !== "object")
    throw new Error(`${what} is not the output of \`pulumi stack export\``);
  return parsed as ExportedStack;
}

/** The pending creates of an export, as `<urn>` lines: what both exports must agree on. */
function pendingCreates(stack: ExportedStack): string {
  const ops = stack.deployment.pending_operations ?? [];
  return JSON.stringify(
    ops
      .filter((op) => op.type === "creating")
      .map((op) => op.resource.urn)
      .sort(),
  );
}

/** The export to repair and the one whose secrets are read, checked against each other. */
function exportsOf(args: string[], stdin: string): { toRepair: ExportedStack; shown: ExportedStack } {
  const shown = parseExport(stdin, "stdin");
  if (args.length === 0) {
    if (holdsShownSecret(shown))
      throw new Error(
        "stdin shows secrets: name the export to repair (`pulumi stack export > stack.json`) as the argument",
      );
    return { toRepair: shown, shown };
  }
  const toRepair = parseExport(fs.readFileSync(args[0], "utf8"), args[0]);
  if (holdsShownSecret(toRepair))
    throw new Error(`${args[0]} shows secrets: make it with \`pulumi stack export\`, without --show-secrets`);
  if (pendingCreates(toRepair) !== pendingCreates(shown))
    throw new Error(`stdin and ${args[0]} are not exports of the same state: their pending creates differ`);
  return { toRepair, shown };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.length > 1 || args.some((a) => a.startsWith("-"))) {
    process.stdout.write(USAGE);
    if (!args.includes("--help")) process.exitCode = 2;
    return;
  }
  const { toRepair, shown } = exportsOf(args, await readStdin());
  const { stack, resolutions } = await resolvePendingCreates(toRepair, accountFinders(shown), shown);
  for (const r of resolutions) process.stderr.write(`${r.outcome.padEnd(7)} ${r.urn}: ${r.reason}\n`);
  if (resolutions.length === 0) process.stderr.write("no pending creates of pulumi-vmapi resources\n");
  process.stdout.write(JSON.stringify(stack, null, 2) + "\n");
}

main().catch((err: unknown) => {
  process.stderr.write(`vmapi-recover-pending: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
