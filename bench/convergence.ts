/**
 * Benchmark 2: convergence overhead. N machines created at once through `machineProvider.create`
 * against the emulator CLI on a real clock, time-scaled so provisioning lasts D = 3 s; wall time
 * until every create has returned, divided by D (1.0 is the floor: nothing can be faster).
 *
 * Every waiting schedule is scaled like the emulator: sleeps are 0.05 × what the code asks for,
 * so each side sees the delays it would see at D = 60 s. Side by side: the provider; the client
 * polling every 5 s (250 ms real), the baseline; the client with candidate schedules from
 * benchmark 1. The provider's sleeps are scaled through its own `pollScale` setting, as
 * `npm run demo` does against a time-scaled emulator. Request latency is not scaled, so it weighs
 * 20 × more than at D = 60 s.
 * Excluded: the Pulumi engine's own work (registration, state writes, plugin RPCs).
 */
import { VmApiClient } from "../src/client/client";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { PROPOSED, SCHEDULES, type Schedule } from "./requestsPerMachine";
import {
  MACHINE_INPUTS,
  control,
  countsSince,
  createRequest,
  median,
  requestCounts,
  round,
  timed,
  totalOf,
  useRealClock,
  useScaledClock,
} from "./support";

/** Emulator time scale: 60 s of provisioning take 3 s. */
export const TIME_SCALE = 0.05;
const D_MS = 60_000 * TIME_SCALE;

export const SIZES = [1, 10, 50] as const;

/** Who creates and waits: the provider (its own schedule, scaled or not), or the client with a schedule. */
export interface Mode {
  name: string;
  schedule?: Schedule;
  scaled: boolean;
}

export const PROVIDER = "provider";
export const BASELINE = "fixed 5 s × scale (baseline)";
export const MODES: readonly Mode[] = [
  { name: PROVIDER, scaled: true },
  { name: BASELINE, schedule: SCHEDULES[0], scaled: true },
  { name: `client, ${PROPOSED.name}`, schedule: PROPOSED, scaled: true },
  { name: `client, ${SCHEDULES[3].name}`, schedule: SCHEDULES[3], scaled: true },
];

/** One N under one mode: the median run, with every run's ratio. */
export interface ConvergenceRow {
  mode: string;
  machines: number;
  /** Median wall time / D over the runs. */
  ratio: number;
  runs: number[];
  wallMs: number;
  requestsPerMachine: number;
}

export interface ConvergenceResult {
  timeScale: number;
  durationMs: number;
  repetitions: number;
  rows: ConvergenceRow[];
}

/** Runs benchmark 2: 3 sizes × 4 modes × `repetitions` runs of about D each (up to 2.5 D). */
export async function convergence(repetitions = 3): Promise<ConvergenceResult> {
  const emu = await startEmulatorProcess(["--time-scale", String(TIME_SCALE)]);
  try {
    const rows: ConvergenceRow[] = [];
    for (const machines of SIZES) {
      const runs = new Map<string, { ratio: number; wallMs: number; requests: number }[]>();
      // Interleaved, so a noisy moment of the machine is shared by every mode.
      for (let r = 0; r < repetitions; r++) {
        for (const mode of MODES) {
          const run = await oneRun(emu, mode, machines);
          runs.set(mode.name, [...(runs.get(mode.name) ?? []), run]);
        }
      }
      for (const [mode, list] of runs) {
        const ratios = list.map((x) => x.ratio);
        rows.push({
          mode,
          machines,
          ratio: round(median(ratios)),
          runs: ratios.map((x) => round(x)),
          wallMs: Math.round(median(list.map((x) => x.wallMs))),
          requestsPerMachine: round(median(list.map((x) => x.requests)) / machines, 1),
        });
      }
    }
    return { timeScale: TIME_SCALE, durationMs: D_MS, repetitions, rows };
  } finally {
    await emu.stop();
  }
}

/** Creates `machines` machines at once from a clean emulator; wall time until all are ready. */
async function oneRun(emu: EmulatorProcess, mode: Mode, machines: number) {
  await control(emu.url, "reset");
  const names = Array.from({ length: machines }, (_, i) => `conv-${i}`);
  const settings = { apiKey: emu.apiKey, baseUrl: emu.url };
  const clock = mode.scaled ? useScaledClock(TIME_SCALE) : useRealClock();
  const inputs = await Promise.all(
    names.map(async (name) => (await clock.machines.check({}, { ...MACHINE_INPUTS, name }, settings)).inputs),
  );
  const before = await requestCounts(emu.url);
  const { ms } = await timed(async () => {
    const { schedule } = mode;
    if (schedule) await Promise.all(names.map((n) => scheduledCreate(emu, n, schedule)));
    else await Promise.all(inputs.map((input) => clock.machines.create(input, settings)));
  });
  const requests = totalOf(countsSince(before, await requestCounts(emu.url)));
  return { ratio: ms / D_MS, wallMs: ms, requests };
}

/** The client: create, first poll after `schedule.firstPollMs`, then its policy; sleeps × the time scale. */
async function scheduledCreate(emu: EmulatorProcess, name: string, schedule: Schedule): Promise<void> {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms * TIME_SCALE));
  const origin = Date.now();
  const client = new VmApiClient({
    apiKey: emu.apiKey,
    baseUrl: emu.url,
    sleep,
    now: () => origin + (Date.now() - origin) / TIME_SCALE,
  });
  const { id } = await client.machines.create(createRequest(name));
  await sleep(schedule.firstPollMs);
  await client.machines.waitFor(id, "ready", { pollPolicy: schedule.policy });
}
