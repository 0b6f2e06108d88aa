/**
 * What every machine of a test is made of: the create-only basics (a small CPU machine in NY2,
 * billed hourly) and a valid create request for the individual account built on them.
 */
import type { Machine } from "../../src/contract/schemas";
import { LIFECYCLE } from "../../src/emulator";
import { namingSeed } from "../../src/contract/unfinishedCreates";
import { SEEDED } from "./seeded";

/**
 * The naming inputs of resource `name` as a program gives them, its seed made of the current
 * test's name too: each test is a stack of its own, so two tests that declare the same resource
 * name never make the same auto-name (which a create would find already taken: leftovers.ts).
 */
export function resourceOfThisTest(name: string): { __resourceName: string; __namingSeed: string } {
  return { __resourceName: name, __namingSeed: namingSeed([expect.getState().currentTestName ?? "", name]) };
}

/**
 * True when `machine` is named `name`, or carries it as its creating name (the name a machine has
 * until its create has finished: contract/unfinishedCreates.ts).
 */
export function hasName(machine: { name: string }, name: string): boolean {
  return machine.name === name || machine.name.startsWith(`${name} (creating `);
}

/** The create-only inputs every machine test starts from (add a templateId). */
export const MACHINE_BASICS = {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
} as const;

/**
 * The four in-place settings the create endpoint takes (docs/api.md, "Creating a machine"), as a
 * machine declaring them must hold them.
 */
export const CREATE_SETTINGS = {
  shutdownTimeoutInHours: 42,
  performAutoSnapshot: true,
  autoSnapshotFrequency: "day",
  autoSnapshotSaveCount: 3,
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

/**
 * A machine as the API's wire shows it: a small headless machine, off, with nothing built and no
 * events; `overrides` for what a test looks at (state, events).
 */
export function wireMachine(overrides: Partial<Machine> = {}): Machine {
  return {
    id: "ps1",
    name: "m",
    os: null,
    ram: null,
    cpus: 1,
    gpu: null,
    storageTotal: null,
    storageUsed: null,
    machineType: "C1",
    usageRate: "C1 hourly",
    shutdownTimeoutInHours: 0,
    shutdownTimeoutForces: false,
    performAutoSnapshot: false,
    autoSnapshotFrequency: null,
    autoSnapshotSaveCount: null,
    dynamicPublicIp: false,
    agentType: "LinuxHeadless",
    dtCreated: "2026-01-01T00:00:00.000Z",
    state: "off",
    updatesPending: false,
    networkId: null,
    privateIpAddress: null,
    publicIpAddress: null,
    region: null,
    scriptId: null,
    dtLastRun: null,
    restorePointSnapshotId: null,
    restorePointFrequency: null,
    events: [],
    ...overrides,
  };
}
