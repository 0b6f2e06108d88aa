/**
 * The review as Markdown for a pull-request comment: a headline with the change in cost, the
 * preview's warnings, one table row per machine (what happens, why, cost per hour and per month
 * before → after) and the stack's total, then what is destroyed or released, the scripts that run
 * at next boot, the other resources that change, and a footer naming the price list.
 */
import { HOURS_PER_MONTH } from "../contract/prices";
import { sumCosts, type Cost } from "./cost";
import type { InputChange, MachineAction, MachineReview, ReviewModel } from "./reviewModel";

const ACTION_WORDS: Record<MachineAction, string> = {
  create: "create",
  adopt: "adopt",
  replace: "**replace**",
  update: "update in place",
  start: "start",
  stop: "stop",
  restart: "restart",
  delete: "**delete**",
  same: "no change",
};

/** Renders the model; `gateFailures` (from `--fail-on`) are listed under the headline. */
export function renderMarkdown(model: ReviewModel, gateFailures: readonly string[] = []): string {
  const changed = model.machines.filter((m) => !m.actions.includes("same"));
  const lines: string[] = [heading(model), ""];
  if (model.errors.length > 0) {
    lines.push("**The preview failed:**", "", ...model.errors.map((e) => `- ${oneLine(e)}`), "");
  }
  lines.push(headline(model, changed), "");
  if (gateFailures.length > 0)
    lines.push("**CI gate failed:**", "", ...gateFailures.map((f) => `- ${f}`), "");
  lines.push(...warningLines(model));
  if (model.machines.length > 0) lines.push(...machineTable(model), "");
  lines.push(...destroyed(model), ...ipLines(model), ...bootLines(model), ...otherLines(model));
  lines.push(footer(model));
  return lines.join("\n") + "\n";
}

function heading(model: ReviewModel): string {
  const where = model.project && model.stack ? ` of \`${model.project}/${model.stack}\`` : "";
  return `### vmapi review${where}`;
}

function headline(model: ReviewModel, changed: MachineReview[]): string {
  const counts = new Map<string, number>();
  for (const m of changed) for (const a of m.actions) counts.set(a, (counts.get(a) ?? 0) + 1);
  const what =
    changed.length === 0
      ? "No machine changes."
      : `Machines: ${[...counts].map(([a, n]) => `${n} to ${a === "update" ? "update in place" : a}`).join(", ")}.`;
  const before = sumCosts(model.machines.map((m) => m.before));
  const after = sumCosts(model.machines.map((m) => m.after));
  const unknown = before.unknown + after.unknown > 0 ? " (some costs are known only after up)" : "";
  const delta =
    Math.abs(after.monthly - before.monthly) < 0.005
      ? `Cost unchanged at ${money(after.hourly, 4)}/h, ${money(after.monthly, 2)}/month${unknown}.`
      : `Cost ${signed(after.hourly - before.hourly, 4)}/h, ${signed(after.monthly - before.monthly, 2)}/month ` +
        `(${money(before.monthly, 2)} → ${money(after.monthly, 2)})${unknown}.`;
  const disks = model.disks.length > 0 ? ` **Destroys ${plural(model.disks.length, "disk")}.**` : "";
  return `**${what}** ${delta}${disks}`;
}

/** The warnings, on top: each says what the `up` will do that the table cannot (a disk lost, and why). */
function warningLines(model: ReviewModel): string[] {
  if (model.warnings.length === 0) return [];
  const line = (w: ReviewModel["warnings"][number]) =>
    `- ${w.resource === undefined ? "" : `\`${w.resource}\`: `}${escapeHtml(oneLine(w.message))}`;
  return ["**Warnings from the preview:**", "", ...model.warnings.map(line), ""];
}

function machineTable(model: ReviewModel): string[] {
  const rows = model.machines.map((m) => [
    machineCell(m),
    m.actions.map((a) => ACTION_WORDS[a]).join(", "),
    why(m),
    costCell(m.before, m.after, "hourly"),
    costCell(m.before, m.after, "monthly"),
  ]);
  const before = sumCosts(model.machines.map((m) => m.before));
  const after = sumCosts(model.machines.map((m) => m.after));
  const scope = model.hiddenSames === 0 ? "**stack**" : "**machines in this preview**";
  rows.push([
    `${scope} (${plural(model.machines.filter((m) => m.after).length, "machine")} after)`,
    "",
    "",
    `**${money(before.hourly, 4)} → ${money(after.hourly, 4)}**`,
    `**${money(before.monthly, 2)} → ${money(after.monthly, 2)}**`,
  ]);
  return [
    "| machine | change | why | per hour | per month |",
    "| --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

function machineCell(m: MachineReview): string {
  const names =
    m.nameBefore && m.nameAfter && m.nameBefore !== m.nameAfter
      ? `${m.nameBefore} → ${m.nameAfter}`
      : (m.nameAfter ?? m.nameBefore);
  const details = [names, m.machineId].filter((x) => x !== undefined).join(", ");
  return `\`${m.resource}\`${details ? ` (${details})` : ""}`;
}

function why(m: MachineReview): string {
  const parts: string[] = [];
  if (m.forcedBy.length > 0) parts.push(`forced by ${m.forcedBy.map(change).join(", ")}`);
  if (m.changes.length > 0) parts.push(m.changes.map(change).join(", "));
  if (m.actions.includes("adopt")) parts.push("an existing machine: no new cost");
  return parts.join("; ");
}

function change(c: InputChange): string {
  return `\`${c.key}\` ${c.before} → ${c.after}`;
}

function costCell(before: Cost | undefined, after: Cost | undefined, unit: "hourly" | "monthly"): string {
  const digits = unit === "hourly" ? 4 : 2;
  const one = (cost: Cost | undefined) =>
    cost === undefined ? "–" : "unknown" in cost ? `? (${cost.unknown})` : money(cost[unit], digits);
  return `${one(before)} → ${one(after)}`;
}

function destroyed(model: ReviewModel): string[] {
  if (model.disks.length === 0) return [];
  return [
    `**Disks destroyed** (their data is lost):`,
    "",
    ...model.disks.map(
      (d) =>
        `- ${d.sizeGb === undefined ? "a" : `${d.sizeGb} GB`} disk of \`${d.machineName}\` (${d.machineId}), by the ${d.cause} of \`${d.resource}\``,
    ),
    "",
  ];
}

function ipLines(model: ReviewModel): string[] {
  if (model.ips.length === 0) return [];
  const line = (ip: ReviewModel["ips"][number]) =>
    ip.kept
      ? `- ${ip.address} (static) of \`${ip.machineName}\` stays reserved in the account after the ${ip.cause} (set \`releasePublicIpOnDestroy\` to release it)`
      : `- ${ip.address} (${ip.kind}) of \`${ip.machineName}\` is released by the ${ip.cause}`;
  return ["**Public IPs:**", "", ...model.ips.map(line), ""];
}

function bootLines(model: ReviewModel): string[] {
  if (model.bootScripts.length === 0) return [];
  const occasion = {
    create: "new",
    replace: "replacement",
    start: "started",
    assigned: "assigned the script",
    restart: "assigned the script and restarted: it runs during this up",
  };
  const scriptChange: Record<string, string> = { create: "a new script", replace: "the script is replaced" };
  return [
    "**Scripts at next boot:**",
    "",
    ...model.bootScripts.map(
      (b) =>
        `- \`${b.machineName}\` (${occasion[b.occasion]}) runs \`${b.script}\`${b.runOnce ? " once" : " at every boot"}${b.scriptChange ? ` (${scriptChange[b.scriptChange] ?? b.scriptChange})` : ""}`,
    ),
    "",
  ];
}

function otherLines(model: ReviewModel): string[] {
  if (model.others.length === 0) return [];
  return [
    "**Other resources:**",
    "",
    ...model.others.map(
      (o) =>
        `- ${o.type} \`${o.resource}\`: ${o.op}${o.reasons.length ? ` (forced by ${o.reasons.join(", ")})` : ""}`,
    ),
    "",
  ];
}

function footer(model: ReviewModel): string {
  const scope =
    model.hiddenSames === 0
      ? ""
      : ` ${plural(model.hiddenSames, "unchanged resource")} not in this preview, so not in the totals: run \`pulumi preview --json --show-sames\` for the stack's.`;
  return (
    `<sub>Prices: ${model.prices.name}. Hourly machines cost their rate while on, monthly ones their monthly rate; ` +
    `disks by size; ${HOURS_PER_MONTH} hours a month.${scope}</sub>`
  );
}

/** Dollars with `digits` decimals. */
export function money(amount: number, digits: number): string {
  return `$${Math.abs(amount).toFixed(digits)}`.replace("$", amount < -1e-12 ? "-$" : "$");
}

function signed(amount: number, digits: number): string {
  const rounded = Number(amount.toFixed(digits));
  return rounded > 0 ? `+${money(amount, digits)}` : rounded < 0 ? money(amount, digits) : money(0, digits);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function cell(value: string): string {
  return value.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** Text as HTML shows it (a provider's `<machine>` would otherwise be taken for a tag and vanish). */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function oneLine(value: string): string {
  return value.replace(/\s*\n\s*/g, " ");
}
