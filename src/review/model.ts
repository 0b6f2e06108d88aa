/**
 * A preview as a reviewer reads it: per machine what happens and why, what each costs before and
 * after, the disks and public IPs that go, the scripts that machines will run at their next boot,
 * and the providers' warnings. Built from the steps and diagnostics of `pulumi preview --json`
 * (see previewJson.ts for what they carry).
 */
import type { PriceList } from "../contract/prices";
import { MACHINE_DIFF_TABLE } from "../provider/machine/machineDiffTable";
import { machineCost, type BilledMachine } from "./cost";
import { assignedScript, bootScript, goneMachine, stoppedIp } from "./effects";
import {
  stepKind,
  SECRET_VALUE,
  UNKNOWN_VALUE,
  shown,
  stepType,
  text,
  urnParts,
  type Preview,
  type PreviewStep,
  type Props,
} from "./previewJson";
import type { InputChange, MachineAction, MachineReview, PreviewWarning, ReviewModel } from "./reviewModel";

/** Builds the model of a parsed preview, pricing machines with `prices`. */
export function buildModel(preview: Preview, prices: PriceList): ReviewModel {
  const steps = preview.steps.filter((s) => s.urn !== "" && stepType(s) !== "pulumi:pulumi:Stack");
  const byUrn = new Map(steps.map((s) => [s.urn, s]));
  const model: ReviewModel = {
    machines: [],
    disks: [],
    ips: [],
    bootScripts: [],
    others: [],
    // The summary counts every unchanged resource; the steps list them only with --show-sames.
    hiddenSames: Math.max(
      0,
      (preview.changeSummary?.same ?? 0) - preview.steps.filter((s) => s.op === "same").length,
    ),
    errors: preview.diagnostics.filter((d) => d.severity === "error").map((d) => (d.message ?? "").trim()),
    warnings: previewWarnings(preview.diagnostics),
    prices,
  };
  const first = preview.steps[0];
  if (first) Object.assign(model, pick(urnParts(first.urn), ["project", "stack"]));
  for (const step of steps) {
    const type = stepType(step);
    const kind = stepKind(step);
    if (kind === "Machine") reviewMachine(step, byUrn, model);
    else if (kind === "MachineRestart") reviewRestart(step, model);
    else if (step.op !== "same" && step.op !== "read" && !type.startsWith("pulumi:providers:")) {
      model.others.push({
        type: type.split(":").pop() ?? type,
        resource: urnParts(step.urn).name,
        op: step.op,
        reasons: (step.replaceReasons ?? []).map((r) =>
          r === "contentSha256" ? "the script's text" : `\`${r}\``,
        ),
      });
    }
    if (kind === "Script") assignedScript(step, steps, model);
  }
  return model;
}

/**
 * How a warning's message starts in the JSON: `warning: ` for the engine's warning diagnostics (a
 * plugin's among them), and `warning: [runtime] ` for a dynamic provider's, which the Node SDK's
 * log, with no engine in the provider's process, writes to stderr, and the engine passes on as a
 * line of that stderr: severity `info#err`, no URN.
 */
const WARNING_PREFIX = /^warning: (?:\[runtime\] )?/;

/**
 * The warnings a reviewer must read before the `up` (a machine replaced with its disk because its
 * scriptId changes, say): the engine's warning diagnostics, a plugin's on its resource's URN, and
 * a dynamic provider's stderr lines that are warnings (its other lines, Node's notices among them,
 * are left out). Each once; a secret reads as the review shows secrets everywhere.
 */
function previewWarnings(diagnostics: Preview["diagnostics"]): PreviewWarning[] {
  const warnings = new Map<string, PreviewWarning>();
  for (const d of diagnostics) {
    const line = (d.message ?? "").trim();
    const dynamic = d.severity === "info#err" && WARNING_PREFIX.test(line);
    if (d.severity !== "warning" && !dynamic) continue;
    const message = line.replace(WARNING_PREFIX, "").split(SECRET_VALUE).join(shown(SECRET_VALUE));
    const about = d.urn ? urnParts(d.urn) : undefined;
    const resource = about && about.type !== "pulumi:pulumi:Stack" ? about.name : undefined;
    if (message !== "") warnings.set(`${resource}\n${message}`, { resource, message });
  }
  return [...warnings.values()];
}

function pick<T extends object, K extends keyof T>(value: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, value[k]])) as Pick<T, K>;
}

function reviewMachine(step: PreviewStep, byUrn: Map<string, PreviewStep>, model: ReviewModel): void {
  if (step.op === "read") return; // Machine.get: read, never managed
  const resource = urnParts(step.urn).name;
  const oldIn: Props = step.oldState?.inputs ?? {};
  const oldOut: Props = step.oldState?.outputs ?? {};
  const newIn: Props = step.newState?.inputs ?? {};
  const existed = step.oldState != null && step.op !== "create";
  const remains = step.newState != null && step.op !== "delete";
  const review: MachineReview = {
    resource,
    actions: actionsOf(step, oldIn, oldOut, newIn),
    forcedBy: [],
    changes: [],
    nameBefore: existed ? text(oldOut.name ?? oldIn.name) : undefined,
    nameAfter: remains ? text(newIn.name ?? oldOut.name) : undefined,
    machineId: existed ? text(oldOut.machineId ?? step.oldState?.id) : undefined,
  };
  if (existed)
    review.before = machineCost(billed(oldOut, oldIn, poweredOn(observedPower(oldOut, oldIn))), model.prices);
  if (remains) review.after = machineCost(billed(newIn, {}, poweredOn(newIn.state ?? "ready")), model.prices);
  if (review.actions.includes("adopt")) review.before = review.after; // it runs already: adopting costs nothing
  if (existed && remains) classifyChanges(step, oldIn, newIn, review);
  model.machines.push(review);
  if (step.op === "replace" || step.op === "delete") goneMachine(step.op, review, oldIn, oldOut, model);
  if (review.actions.includes("stop")) stoppedIp(review, oldOut, model);
  bootScript(step, review, newIn, byUrn, model);
}

/**
 * A MachineRestart whose triggers change: the machine it belongs to is restarted (its row says
 * "restart" and which trigger changed), unless it is declared off. Its create (triggers declared
 * first) and its replacement (a new machine) restart nothing.
 */
function reviewRestart(step: PreviewStep, model: ReviewModel): void {
  if (step.op !== "update") return;
  const oldIn: Props = step.oldState?.inputs ?? {};
  const newIn: Props = step.newState?.inputs ?? {};
  const before = Array.isArray(oldIn.triggers) ? (oldIn.triggers as unknown[]) : [];
  const after = Array.isArray(newIn.triggers) ? (newIn.triggers as unknown[]) : [];
  const changes: InputChange[] = [];
  for (let i = 0; i < Math.max(before.length, after.length); i++) {
    if (after[i] === UNKNOWN_VALUE || JSON.stringify(before[i]) !== JSON.stringify(after[i]))
      changes.push({
        key: `restartTriggers[${i}]`,
        before: shown(before[i]),
        after: afterTrigger(step, after[i]),
      });
  }
  if (changes.length === 0) return;
  const parentName = step.newState?.parent
    ? urnParts(step.newState.parent).name
    : urnParts(step.urn).name.replace(/-restart$/, "");
  let review = model.machines.find((m) => m.resource === parentName);
  if (review === undefined) {
    const machineId = text(step.oldState?.outputs?.machineId ?? oldIn.machineId);
    review = { resource: parentName, actions: [], forcedBy: [], changes: [], machineId };
    model.machines.push(review);
  }
  review.actions = review.actions.filter((a) => a !== "same");
  if (newIn.state === "off") {
    review.changes.push(...changes.map((c) => ({ ...c, after: `${c.after} (declared off: no restart)` })));
    if (review.actions.length === 0) review.actions.push("update");
    return;
  }
  review.actions.push("restart");
  review.changes.push(...changes);
  // A script assigned to it in this preview runs at this restart, not at some later boot.
  const restarted = [parentName, review.machineId];
  for (const boot of model.bootScripts)
    if (boot.occasion === "assigned" && restarted.includes(boot.resource)) boot.occasion = "restart";
}

/** A trigger's new value; one known only after `up` (a replaced script's id) says so. */
function afterTrigger(step: PreviewStep, value: unknown): string {
  if (value !== UNKNOWN_VALUE) return shown(value);
  const sources = step.newState?.propertyDependencies?.triggers ?? [];
  const from = sources.map((urn) => `\`${urnParts(urn).name}\``).join(", ");
  return from ? `(from ${from}, known after up)` : shown(value);
}

function actionsOf(step: PreviewStep, oldIn: Props, oldOut: Props, newIn: Props): MachineAction[] {
  switch (step.op) {
    case "create":
      return [newIn.adoptMachineId !== undefined ? "adopt" : "create"];
    case "replace":
    case "create-replacement":
      return ["replace"];
    case "delete":
    case "delete-replaced":
      return ["delete"];
    case "update": {
      const actions: MachineAction[] = [];
      if (changedKeys(oldIn, newIn).some((k) => k !== "state")) actions.push("update");
      const wasOn = poweredOn(observedPower(oldOut, oldIn));
      const isOn = poweredOn(newIn.state ?? "ready");
      if (wasOn !== isOn) actions.push(isOn ? "start" : "stop");
      return actions.length > 0 ? actions : ["update"];
    }
    default:
      return ["same"];
  }
}

/** Where the machine stands: the state the API reported last, else the declared one. */
function observedPower(outputs: Props, inputs: Props): unknown {
  return outputs.currentState ?? outputs.state ?? inputs.state ?? "ready";
}

function poweredOn(state: unknown): boolean {
  return state !== "off" && state !== "stopping";
}

function billed(primary: Props, fallback: Props, running: boolean): BilledMachine {
  const known = (key: string) => {
    const value = primary[key] ?? fallback[key];
    return value === UNKNOWN_VALUE || value === null ? undefined : value;
  };
  const size = known("size");
  return {
    machineType: known("machineType") as string | undefined,
    billingType: known("billingType") as string | undefined,
    sizeGb: typeof size === "number" ? size : undefined,
    running,
  };
}

/** Input keys (not the engine's own `__` keys) whose values differ; an unknown value is a change. */
function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter(
    (k) =>
      !k.startsWith("__") &&
      (news[k] === UNKNOWN_VALUE || JSON.stringify(olds[k]) !== JSON.stringify(news[k])),
  );
}

function classifyChanges(step: PreviewStep, oldIn: Props, newIn: Props, review: MachineReview): void {
  const changed = changedKeys(oldIn, newIn).filter((k) => k !== "state");
  const table = MACHINE_DIFF_TABLE as Record<string, string | undefined>;
  // The engine names the provider's reasons; a replacement forced by a replaced dependency has
  // none, so the inputs whose change replaces (the provider's own table) stand in for them.
  const reasons =
    step.op === "replace"
      ? step.replaceReasons?.length
        ? step.replaceReasons
        : changed.filter((k) => table[k] === "replace" || table[k] === undefined)
      : [];
  const change = (key: string): InputChange => ({
    key,
    before: shown(oldIn[key]),
    after: afterValue(step, newIn, key),
  });
  review.forcedBy = reasons.map(change);
  review.changes = changed.filter((k) => !reasons.includes(k)).map(change);
}

/** A new value; one known only after `up` names the resource it comes from. */
function afterValue(step: PreviewStep, newIn: Props, key: string): string {
  const source = step.newState?.propertyDependencies?.[key]?.[0];
  if (newIn[key] !== UNKNOWN_VALUE || source === undefined) return shown(newIn[key]);
  return `(from \`${urnParts(source).name}\`, known after up)`;
}
