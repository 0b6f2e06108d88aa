/**
 * What a machine's change does beyond its own row: the disk and public IP a replace or delete
 * destroys, the dynamic IP a stop gives up, and the scripts machines run at their next boot.
 */
import type { MachineReview, ReviewModel } from "./reviewModel";
import {
  shown,
  stepKind,
  text,
  urnParts,
  type PreviewStep,
  type Props,
  type ResourceState,
} from "./previewJson";

/** The disk (and public IP) of a machine that a replace or delete destroys. */
export function goneMachine(
  cause: "replace" | "delete",
  review: MachineReview,
  oldIn: Props,
  oldOut: Props,
  model: ReviewModel,
): void {
  const machineName = review.nameBefore ?? review.resource;
  const size = oldOut.size ?? oldIn.size;
  model.disks.push({
    resource: review.resource,
    machineName,
    machineId: review.machineId ?? "(no id)",
    sizeGb: typeof size === "number" ? size : undefined,
    cause,
  });
  const address = oldOut.publicIpAddress;
  if (typeof address !== "string" || address === "") return;
  const isStatic = (oldOut.assignPublicIp ?? oldIn.assignPublicIp) === true;
  // The provider releases a static IP on destroy only when told to; a dynamic one always goes.
  const release = (oldOut.releasePublicIpOnDestroy ?? oldIn.releasePublicIpOnDestroy) === true;
  model.ips.push({
    resource: review.resource,
    machineName,
    address,
    kind: isStatic ? "static" : "dynamic",
    kept: isStatic && !release,
    cause,
  });
}

/** A dynamic public IP goes when its machine stops; a static one stays with the machine. */
export function stoppedIp(review: MachineReview, oldOut: Props, model: ReviewModel): void {
  const address = oldOut.publicIpAddress;
  if (typeof address !== "string" || address === "" || oldOut.dynamicPublicIp !== true) return;
  model.ips.push({
    resource: review.resource,
    machineName: review.nameBefore ?? review.resource,
    address,
    kind: "dynamic",
    kept: false,
    cause: "stop",
  });
}

/** The script a machine runs when this change boots it (created, replaced or started while on). */
export function bootScript(
  step: PreviewStep,
  review: MachineReview,
  newIn: Props,
  byUrn: Map<string, PreviewStep>,
  model: ReviewModel,
): void {
  const occasion = review.actions.find((a): a is "create" | "replace" | "start" =>
    ["create", "replace", "start"].includes(a),
  );
  if (occasion === undefined || newIn.state === "off" || newIn.scriptId == null) return;
  const scriptUrn = step.newState?.propertyDependencies?.scriptId?.[0];
  const scriptStep = scriptUrn ? byUrn.get(scriptUrn) : undefined;
  const script = scriptStep ? scriptProps(scriptStep.newState ?? scriptStep.oldState) : {};
  // A run-once script ran at the machine's first boot already; a disabled one never runs.
  if (script.isEnabled === false || (occasion === "start" && script.runOnce === true)) return;
  model.bootScripts.push({
    resource: review.resource,
    machineName: review.nameAfter ?? review.resource,
    script: text(script.name) ?? (scriptStep ? urnParts(scriptStep.urn).name : shown(newIn.scriptId)),
    runOnce: script.runOnce === true,
    occasion,
    scriptChange: scriptStep && scriptStep.op !== "same" ? scriptStep.op : undefined,
  });
}

function scriptProps(state: ResourceState | null | undefined): Props {
  return { ...(state?.outputs ?? {}), ...(state?.inputs ?? {}) };
}

/** A new script given a `machineId` is assigned to that machine: it runs at the machine's next boot. */
export function assignedScript(step: PreviewStep, steps: PreviewStep[], model: ReviewModel): void {
  if (step.op !== "create" && step.op !== "replace") return;
  const script = scriptProps(step.newState);
  if (typeof script.machineId !== "string" || script.isEnabled === false) return;
  const machine = steps.find(
    (s) =>
      stepKind(s) === "Machine" && (s.oldState?.outputs?.machineId ?? s.oldState?.id) === script.machineId,
  );
  const oldOut = machine?.oldState?.outputs ?? {};
  model.bootScripts.push({
    resource: machine ? urnParts(machine.urn).name : script.machineId,
    machineName: text(oldOut.name) ?? script.machineId,
    script: text(script.name) ?? urnParts(step.urn).name,
    runOnce: script.runOnce === true,
    occasion: "assigned",
    scriptChange: step.op,
  });
}
