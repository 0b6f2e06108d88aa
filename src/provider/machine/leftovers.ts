/**
 * What a Machine's create does with machines that already have its names, decided before it
 * sends anything (the rule is written out in docs/recovery.md, "A provider process that dies"):
 *
 * - A machine under the resource's **creating name** (contract/unfinishedCreates.ts) was made by
 *   an earlier create of this very resource that never finished: its process died before the
 *   stack recorded the machine. Of the declared spec (every input that would replace it), it is
 *   taken over, and the create carries on with it instead of making another. Of another spec
 *   (the program changed since), nothing is taken and nothing is created: the error names it.
 * - A machine under the resource's **auto-name** and of its spec, with no creating name, was
 *   made by this resource (the auto-name belongs to this stack and resource) but was handed to a
 *   stack once: a machine kept by `retainOnDelete`, one left by a version of this package that
 *   had no creating names, or one of a stack of the same project and stack name elsewhere.
 *   Nothing proves it is unwanted or free, so nothing is created and the error says how to adopt
 *   it or how to keep it apart.
 * - A machine that merely has a declared (fixed) name is nobody's in particular: names are not
 *   unique in the API, and the create goes ahead beside it, as it always did.
 */
import type { Machine as ApiMachine } from "../../contract/schemas";
import {
  creatingName,
  creatingSuffix,
  endsAsCreating,
  leftByUnfinishedCreates,
  nameBeforeCreating,
} from "../../contract/unfinishedCreates";
import type { Account } from "../account/account";
import { freshListingsFor, type FreshListings } from "../account/freshListings";
import type { ResourceFacts } from "../shared/resourceImplementation";
import { adoptionMismatches, type AdoptionMismatch } from "./adoption";
import type { MachineInputs } from "./machineModel";

/** What the create does: carry on with a machine an unfinished create made, or make one. */
export type LeftoverDecision = { take: ApiMachine; untouched: ApiMachine[] } | { take?: undefined };

/** Bound on the machines one listing collects; far above any sane account. */
const MAX_LISTED = 100_000;

/**
 * The listings of the account's machines that creates starting together share
 * (account/freshListings.ts): what each create decides from.
 */
export function machineListingsFor(account: Account): FreshListings<ApiMachine> {
  return freshListingsFor(account, "machines", (onSent) =>
    account.client.machines.listAll({}, { onSent }).collect({ max: MAX_LISTED }),
  );
}

/** The name the machine of the resource `resource` carries until its create has finished. */
export function creatingNameOf(resource: ResourceFacts, name: string): string {
  return creatingName(name, resource.identity);
}

/**
 * The name a machine read under its resource's own creating name (the resource `identity`'s) is
 * to get (one made by a create that did not finish, taken into the stack by
 * `vmapi-recover-pending`): the name that create was given (`declared`, the stored one, when it
 * is), so a refresh records it as the input and the next `up` renames the machine in place. Any
 * other name is the machine's own.
 */
export function nameToGet(
  machineName: string,
  declared: unknown,
  resource: Pick<ResourceFacts, "identity">,
): string {
  // A name that is nobody's creating name is the machine's own, without the identity's digest.
  if (!endsAsCreating(machineName)) return machineName;
  const identity = resource.identity;
  if (!machineName.endsWith(creatingSuffix(identity))) return machineName;
  if (typeof declared === "string" && creatingName(declared, identity) === machineName) return declared;
  return nameBeforeCreating(machineName, identity);
}

/**
 * Pure: the decision for a create of `inputs` (its machine to be named `name`) of the resource
 * `resource` among the live machines of the account, `found`. Throws the refusal when the create
 * must stop before it makes anything.
 */
export function decideLeftovers(
  inputs: MachineInputs,
  name: string,
  found: readonly ApiMachine[],
  resource: ResourceFacts,
): LeftoverDecision {
  const unfinished = oldestFirst(leftByUnfinishedCreates(found, resource.identity));
  if (unfinished.length > 0) {
    const [take, ...untouched] = unfinished.filter((m) => replacing(inputs, m).length === 0);
    if (take !== undefined) return { take, untouched };
    throw new LeftoverError(
      staleLeftovers(
        name,
        unfinished.map((m) => [m, replacing(inputs, m)]),
      ),
    );
  }
  if (!resource.autoNamed) return {};
  const kept = oldestFirst(found.filter((m) => m.name === name && replacing(inputs, m).length === 0));
  if (kept.length > 0) throw new LeftoverError(keptMachines(name, kept));
  return {};
}

/** The progress line of a take-over: which machine, and why it is this resource's. */
export function takeOverLine(name: string, decision: { take: ApiMachine; untouched: ApiMachine[] }): string {
  const { take, untouched } = decision;
  const line =
    `machine ${take.id} was made by an earlier create of ${name} that did not finish ` +
    `(the process running it ended before the stack recorded the machine): taking it over instead of creating another`;
  if (untouched.length === 0) return line;
  return `${line}; ${ids(untouched)} also carry that creating name and were not touched: destroy them if nobody uses them`;
}

/** A create stopped before it made anything, because of machines it found (the message says which). */
export class LeftoverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LeftoverError";
  }
}

/** The declared inputs the machine differs in that a later `up` would replace it for. */
function replacing(inputs: MachineInputs, machine: ApiMachine): AdoptionMismatch[] {
  return adoptionMismatches(inputs, machine).filter((m) => m.effect === "replace");
}

function staleLeftovers(name: string, leftovers: [ApiMachine, AdoptionMismatch[]][]): string {
  const lines = leftovers.map(
    ([machine, mismatches]) =>
      `  ${machine.id} ("${machine.name}"): ` +
      mismatches
        .map((m) => `${m.property} ${show(m.actual)} where ${show(m.declared)} is declared`)
        .join(", "),
  );
  return [
    `${name}: nothing was created: an earlier create of this resource that did not finish (its process ended) made ` +
      `a machine of another spec, and it was not taken over:`,
    ...lines,
    `It never reached the stack. Destroy it if nobody uses it, or declare its values to take it over; then run pulumi up again.`,
  ].join("\n");
}

function keptMachines(name: string, kept: readonly ApiMachine[]): string {
  const lines = kept.map((m) => `  ${m.id} ("${m.name}", ${m.state}, created ${m.dtCreated})`);
  const first = kept[0].id;
  return [
    `${name}: nothing was created: a machine with this resource's auto-name and spec already exists and is not in the stack:`,
    ...lines,
    `This resource made it once, and a stack held it (it was kept by retainOnDelete, left by an older pulumi-vmapi, ` +
      `or belongs to a stack of the same project and stack name elsewhere), so it is not taken over silently. ` +
      `To manage it in this stack, add adoptMachineId: "${first}" to the resource. To leave it alone, declare a name ` +
      `for this resource (or rename or destroy that machine). Then run pulumi up again.`,
  ].join("\n");
}

function oldestFirst(machines: readonly ApiMachine[]): ApiMachine[] {
  return [...machines].sort((a, b) => a.dtCreated.localeCompare(b.dtCreated));
}

function ids(machines: readonly ApiMachine[]): string {
  return machines.map((m) => m.id).join(", ");
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
