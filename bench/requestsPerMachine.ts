/**
 * Benchmark 1: API requests per machine for create-and-wait, update (rename + stop) and
 * destroy-and-wait, through `machineProvider` in-process against an emulator on a manual clock
 * (provisioning D = 60 s of emulator time), next to a client polling every 5 s. Then the same
 * create-and-wait with other polling schedules, at several D, to size a change of policy.
 */
import { VmApiClient } from "../src/client/client";
import { NotFoundError } from "../src/client/core/errors";
import { DEFAULT_POLL_POLICY, type PollPolicy } from "../src/client/resources/machine";
import type { RunningEmulator } from "../src/emulator";
import {
  MACHINE_INPUTS,
  countsSince,
  createRequest,
  requestCounts,
  startManualEmulator,
  totalOf,
  useManualClock,
  type RouteCounts,
} from "./support";

/** What one operation cost: requests (per route) and the emulator time until it returned. */
export interface Operation {
  requests: number;
  byRoute: RouteCounts;
  returnedAfterSeconds: number;
}

/** A polling schedule to compare: the first poll `firstPollMs` after the create answer, then `policy`. */
export interface Schedule {
  name: string;
  firstPollMs: number;
  policy: PollPolicy;
}

const FIXED_5S: PollPolicy = { initialDelayMs: 5_000, factor: 1, maxDelayMs: 5_000, jitter: 0 };

/**
 * Proposed for provisioning: no poll in the first 15 s (provisioning never ends that soon), then
 * today's 10 s cadence. The same poll instants as today from 15 s on (15, 25, … 65 s), so the
 * same return time at any D ≥ 15 s, without the polls at 0, 1, 3 and 7 s.
 */
export const PROPOSED: Schedule = {
  name: "proposed: first poll at 15 s, then every 10 s",
  firstPollMs: 15_000,
  policy: withPolicy(10_000, 1, 10_000),
};

/** The baseline, today's schedule, and candidate changes (measured, not simulated). */
export const SCHEDULES: readonly Schedule[] = [
  { name: "fixed 5 s (baseline)", firstPollMs: 0, policy: FIXED_5S },
  { name: "current: at once, 1 s ×2, cap 10 s", firstPollMs: 0, policy: DEFAULT_POLL_POLICY },
  { name: "no poll at once, then as current", firstPollMs: 1_000, policy: withPolicy(2_000, 2, 10_000) },
  { name: "no poll at once, 2 s ×3, cap 15 s", firstPollMs: 2_000, policy: withPolicy(4_000, 3, 15_000) },
  PROPOSED,
];

/** Provisioning durations (s) the schedules are measured at; 60 s is the emulator's default. */
export const SWEEP_SECONDS = [15, 30, 60, 120] as const;
const D_SECONDS = 60;

export interface RequestsResult {
  durationSeconds: number;
  provider: {
    check: Operation;
    create: Operation;
    /** Create-and-wait of a machine that declares the in-place settings (SETTINGS_INPUTS). */
    createWithSettings: Operation;
    update: Operation;
    destroy: Operation;
  };
  baseline: { create: Operation; update: Operation; destroy: Operation };
  schedules: {
    name: string;
    firstPollMs: number;
    policy: PollPolicy;
    byDuration: Record<string, Operation>;
  }[];
}

/** Runs benchmark 1 (about a second: no real waiting). */
export async function requestsPerMachine(): Promise<RequestsResult> {
  const emu = await startManualEmulator();
  try {
    const provider = await providerOperations(emu);
    const baseline = await baselineOperations(emu);
    const schedules = [];
    for (const schedule of SCHEDULES) {
      const byDuration: Record<string, Operation> = {};
      for (const seconds of SWEEP_SECONDS) byDuration[seconds] = await scheduledCreate(schedule, seconds);
      schedules.push({ ...schedule, byDuration });
    }
    return { durationSeconds: D_SECONDS, provider, baseline, schedules };
  } finally {
    await emu.close();
  }
}

/** Counts the requests `fn` makes and the emulator time it takes. */
async function measure(emu: RunningEmulator, fn: () => Promise<unknown>): Promise<Operation> {
  const before = await requestCounts(emu.url);
  const started = emu.now();
  await fn();
  const byRoute = countsSince(before, await requestCounts(emu.url));
  return { requests: totalOf(byRoute), byRoute, returnedAfterSeconds: (emu.now() - started) / 1000 };
}

async function providerOperations(emu: RunningEmulator) {
  const clock = useManualClock(emu);
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  let inputs: Record<string, unknown> = {};
  const check = await measure(emu, async () => {
    ({ inputs } = await clock.machines.check({}, { name: "bench", ...MACHINE_INPUTS }, settings));
  });
  let id = "";
  let outs: Record<string, unknown> = {};
  const create = await measure(emu, async () => {
    ({ id, outs = {} } = await clock.machines.create(inputs, settings));
  });
  const news: Record<string, unknown> = { ...inputs, name: "bench-renamed", state: "off" };
  const update = await measure(emu, async () => {
    ({ outs = {} } = await clock.machines.update(id, outs, news, settings));
  });
  if (outs.currentState !== "off" || outs.name !== "bench-renamed") throw new Error("update did not apply");
  const destroy = await measure(emu, () => clock.machines.delete(id, outs, settings));
  return { check, create, createWithSettings: await createWithSettings(emu), update, destroy };
}

/**
 * The in-place settings a machine may declare beside the basics: they cost nothing more when the
 * create body carries them, one update after the create when it does not.
 */
export const SETTINGS_INPUTS = {
  shutdownTimeoutInHours: 42,
  performAutoSnapshot: true,
  autoSnapshotFrequency: "day",
  autoSnapshotSaveCount: 3,
} as const;

/** Create-and-wait (check apart) of a machine declaring SETTINGS_INPUTS, then its destroy. */
async function createWithSettings(emu: RunningEmulator): Promise<Operation> {
  const clock = useManualClock(emu);
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  const declared = { name: "bench-settings", ...MACHINE_INPUTS, ...SETTINGS_INPUTS };
  const { inputs } = await clock.machines.check({}, declared, settings);
  let id = "";
  let outs: Record<string, unknown> = {};
  const create = await measure(emu, async () => {
    ({ id, outs = {} } = await clock.machines.create(inputs, settings));
  });
  await clock.machines.delete(id, outs, settings);
  return create;
}

/** A client whose sleeps advance the emulator's manual clock. */
function manualClient(emu: RunningEmulator): VmApiClient {
  return new VmApiClient({
    apiKey: emu.keys.individual,
    baseUrl: emu.url,
    sleep: async (ms) => emu.advance(ms),
    now: () => emu.now(),
    random: () => 0.5,
  });
}

/** The simplest client loop with a fixed 5 s poll: create, rename + stop, destroy. */
async function baselineOperations(emu: RunningEmulator) {
  const client = manualClient(emu);
  const pollPolicy = FIXED_5S;
  let id = "";
  const create = await measure(emu, async () => {
    id = (await client.machines.create(createRequest("baseline"))).id;
    await client.machines.waitFor(id, "ready", { pollPolicy });
  });
  const update = await measure(emu, async () => {
    await client.machines.update(id, { machineName: "baseline-renamed" });
    await client.machines.stop(id);
    await client.machines.waitFor(id, "off", { pollPolicy });
  });
  const destroy = await measure(emu, async () => {
    await client.machines.destroy(id);
    for (;;) {
      try {
        await client.machines.get(id);
      } catch (err) {
        if (err instanceof NotFoundError) return;
        throw err;
      }
      emu.advance(pollPolicy.initialDelayMs);
    }
  });
  return { create, update, destroy };
}

/** Create-and-wait through the client with `schedule`, provisioning lasting `seconds`. */
async function scheduledCreate(schedule: Schedule, seconds: number): Promise<Operation> {
  const emu = await startManualEmulator({ timeScale: seconds / D_SECONDS });
  try {
    const client = manualClient(emu);
    return await measure(emu, async () => {
      const { id } = await client.machines.create(createRequest("scheduled"));
      emu.advance(schedule.firstPollMs);
      await client.machines.waitFor(id, "ready", { pollPolicy: schedule.policy });
    });
  } finally {
    await emu.close();
  }
}

function withPolicy(initialDelayMs: number, factor: number, maxDelayMs: number): PollPolicy {
  return { ...DEFAULT_POLL_POLICY, initialDelayMs, factor, maxDelayMs };
}
