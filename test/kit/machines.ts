/**
 * What every machine of a test is made of: the create-only basics (a small CPU machine in NY2,
 * billed hourly) and a valid create request for the individual account built on them.
 */
import { LIFECYCLE } from "../../src/emulator";
import { SEEDED } from "./seeded";

/** The create-only inputs every machine test starts from (add a templateId). */
export const MACHINE_BASICS = {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
} as const;

/** Provisioning length at time scale 1 (the emulator's lifecycle table). */
export const PROVISIONING_MS = LIFECYCLE.provisioning!.durationMs;

/**
 * A valid create request for the individual account: the basics on the seeded Ubuntu desktop
 * (provisioning → ready), named `machineName`; `extra` adds or overrides fields.
 */
export function machineRequest<E extends Record<string, unknown> = Record<never, never>>(
  machineName: string,
  extra: E = {} as E,
) {
  return { ...MACHINE_BASICS, machineName, templateId: SEEDED.desktopTemplate, ...extra };
}
