/**
 * Adoption (`adoptMachineId`) is an import, as Pulumi's own import is: it changes nothing. Every
 * declared input that the API reports must equal the machine's value, or adoption refuses before
 * any change and adopts nothing. Otherwise a later `up` would "correct" the difference: replace
 * (destroy) the machine for a replace-triggering input, or rename, stop or start it for an
 * in-place one, although the user only asked to manage it.
 *
 * Inputs the API does not report (`templateId`, `assignPublicIp`, the snapshot flags,
 * `notificationEmail`) are recorded as declared: they cannot be checked, and nothing compares
 * them with the machine later.
 */
import type { Machine as ApiMachine } from "../../contract/schemas";
import { bytesToGb } from "../../contract/storage";
import {
  actualInputs,
  MACHINE_DIFF_TABLE,
  type MachineInputKey,
  type MachineInputs,
  type MachineOutputs,
  type PowerState,
} from "./machineModel";
import type { EngineProps } from "../shared/resourceImplementation";
import { NEW_USER_FIELDS } from "../../contract/requestSchemas";
import { UNKNOWN } from "../shared/unknown";

/** One declared input that differs from the machine. */
export interface AdoptionMismatch {
  property: string;
  declared: unknown;
  actual: unknown;
  /** What a later `up` would do about it. */
  effect: "replace" | "update in place" | "start or stop";
}

/** States from which the machine comes to rest in each power state without being acted on. */
const HEADING_TO: Record<PowerState, readonly string[]> = {
  ready: ["ready", "serviceready", "starting", "restarting", "provisioning", "upgrading"],
  off: ["off", "stopping"],
};

/** Pure: every declared input (not unknown) whose value differs from what the API reports. */
export function adoptionMismatches(inputs: MachineInputs, machine: ApiMachine): AdoptionMismatch[] {
  const actual = reportedInputs(machine);
  const mismatches: AdoptionMismatch[] = [];
  for (const [property, value] of Object.entries(actual)) {
    const declared = inputs[property];
    if (declared === undefined || declared === UNKNOWN || value === undefined) continue;
    if (JSON.stringify(declared) === JSON.stringify(value)) continue;
    const row = MACHINE_DIFF_TABLE[property as MachineInputKey];
    mismatches.push({
      property,
      declared,
      actual: value,
      effect: row === "replace" ? "replace" : "update in place",
    });
  }
  const state = inputs.state as PowerState | undefined;
  if (state !== undefined && state !== UNKNOWN && !HEADING_TO[state]?.includes(machine.state)) {
    mismatches.push({ property: "state", declared: state, actual: machine.state, effect: "start or stop" });
  }
  return mismatches;
}

/**
 * The machine's values for the inputs the API reports, `size` and `billingType` included (read
 * from `storageTotal` in bytes and from `usageRate`, e.g. "C4 hourly", when present).
 */
export function reportedInputs(machine: ApiMachine): EngineProps {
  const reported: EngineProps = { ...actualInputs(machine) };
  const size = bytesToGb(machine.storageTotal);
  if (size !== undefined) reported.size = size;
  const billing = machine.usageRate.trim().split(/\s+/).pop();
  if (billing === "hourly" || billing === "monthly") reported.billingType = billing;
  return reported;
}

/** The error create throws; the message lists every mismatch, declared vs actual. */
export function adoptionRefusal(machineId: string, mismatches: readonly AdoptionMismatch[]): Error {
  const lines = mismatches.map(
    (m) =>
      `  ${m.property}: declared ${show(m.declared)}, actual ${show(m.actual)} (a later up would ${m.effect})`,
  );
  return new Error(
    [
      `adoptMachineId: machine ${machineId} does not match the declared inputs, so it was not adopted and nothing was changed:`,
      ...lines,
      `Declare the machine's values to adopt it as it is (an undeclared state means "ready"); change them in a later pulumi up.`,
    ].join("\n"),
  );
}

/** Check failures for the same mismatches, each naming its property. */
export function adoptionFailures(machineId: string, mismatches: readonly AdoptionMismatch[]) {
  return mismatches.map((m) => ({
    property: m.property,
    reason:
      `declared ${show(m.declared)}, actual ${show(m.actual)} on machine ${machineId} (adoptMachineId): ` +
      `adoption changes nothing, so declare the machine's value` +
      (m.property === "state" ? ` (an undeclared state means "ready")` : ""),
  }));
}

/** Check failures for inputs adoption cannot honour at all. */
export function adoptionInputFailures(inputs: MachineInputs) {
  return NEW_USER_FIELDS.filter((f) => inputs[f] !== undefined).map((property) => ({
    property,
    reason: `${property} creates a new team user, which adoptMachineId cannot do: declare userId (the machine's user) instead`,
  }));
}

/** True when the resource manages, or is about to adopt, an existing machine. */
export function isAdoption(olds: MachineOutputs, news: MachineInputs): boolean {
  return news.adoptMachineId !== undefined || olds.adoptMachineId !== undefined;
}

/**
 * Refuses a replacement of an adopted machine while `adoptMachineId` still names it: the engine
 * would "create" the replacement by adopting that same machine, then delete the old resource,
 * which destroys it.
 */
export function replacementOfAdopted(
  id: string,
  news: MachineInputs,
  replaces: readonly string[],
): Error | undefined {
  if (replaces.length === 0 || news.adoptMachineId !== id) return undefined;
  return new Error(
    `${replaces.join(", ")} cannot change in place, so this would replace the machine, but adoptMachineId still names machine ${id}: ` +
      `the replacement would adopt it again and then destroy it. Remove adoptMachineId to get a new machine (${id} is then destroyed), ` +
      `or keep the machine's values.`,
  );
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
