/**
 * Benchmark 3 with the web console open: show and list under 50 kept-alive clients with a console
 * page attached (Debian's Chromium, headless, its live updates running: the 1,000 machines, the
 * request log, the header's counts) against no page, side by side in one run. Each round runs
 * both, in alternating order, so a shared machine's drift falls on both sides; the spread
 * between runs of the same side is the noise the ratio is read against. The browser runs on the
 * same 2 cores, as it would on a developer's machine.
 *
 * It also times the request log's hot-path cost alone: one record per request, in this process.
 */
import type { Browser, Page } from "playwright-core";
import { RequestLog } from "../src/emulator/traffic/requestLog";
import { launchChromium } from "../test/browser/support/chromium";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { runLoad, type LoadOptions, type LoadResult } from "./loadGenerator";
import { round } from "./support";

/** One load run, with the emulator process's CPU time per request over it. */
export type MeasuredRun = LoadResult & { cpuUsPerRequest: number };

/** Both routes, run by one side of every round. */
interface SideRuns {
  show: MeasuredRun[];
  list: MeasuredRun[];
}

/** with / without, of the mean requests/s and the medians of p50, p99 and CPU per request. */
interface Ratios {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** The emulator's CPU time per request: what the page costs the server, whatever else the machine runs. */
  cpuPerRequest: number;
}

/** What benchmark 3 measured with a console page attached. */
export interface ConsoleHeadroom {
  rounds: number;
  secondsPerRun: number;
  without: SideRuns;
  with: SideRuns;
  ratio: { show: Ratios; list: Ratios };
  /** The largest relative difference between two runs of the same side and route: requests/s, CPU per request. */
  noise: { show: number; list: number; showCpu: number; listCpu: number };
  /** Requests the page's header counted while attached: its live updates ran. */
  pageSawRequests: number;
  /** One RequestLog.record, alone, and its share of one show request's time at the measured rate. */
  requestLog: { nsPerRecord: number; shareOfShow: number };
}

/** Runs `rounds` rounds of show and list, `durationMs` each, without and with a console page. */
export async function consoleHeadroom(
  flags: string[],
  prepare: (emu: EmulatorProcess) => Promise<string[]>,
  base: Omit<LoadOptions, "baseUrl" | "apiKey" | "next">,
  rounds: number,
): Promise<ConsoleHeadroom> {
  const emu = await startEmulatorProcess(flags);
  const browser = await launchChromium();
  try {
    const ids = await prepare(emu);
    const load = { ...base, baseUrl: emu.url, apiKey: emu.apiKey };
    const runs = { without: { show: [], list: [] } as SideRuns, with: { show: [], list: [] } as SideRuns };
    let pageSawRequests = 0;
    for (let r = 0; r < rounds; r++) {
      for (const side of r % 2 === 0 ? (["without", "with"] as const) : (["with", "without"] as const)) {
        const page = side === "with" ? await openConsole(browser, `${emu.url}/_console/`) : undefined;
        const seenBefore = page === undefined ? 0 : await served(page);
        runs[side].show.push(
          await measured(emu, {
            ...load,
            next: (i) => ({
              method: "GET",
              path: `/machines/getMachinePublic?machineId=${ids[i % ids.length]}`,
            }),
          }),
        );
        runs[side].list.push(
          await measured(emu, { ...load, next: () => ({ method: "GET", path: "/machines/getMachines" }) }),
        );
        if (page !== undefined) {
          pageSawRequests += (await served(page)) - seenBefore;
          await page.close();
        }
      }
    }
    // The page must have been live: its count moved by about what the load sent.
    if (pageSawRequests === 0) throw new Error("the console page received no live update under load");
    const ratio = {
      show: ratios(runs.with.show, runs.without.show),
      list: ratios(runs.with.list, runs.without.list),
    };
    const rate = (r: MeasuredRun) => r.requestsPerSecond;
    const cpu = (r: MeasuredRun) => r.cpuUsPerRequest;
    const noise = {
      show: spread([runs.with.show, runs.without.show], rate),
      list: spread([runs.with.list, runs.without.list], rate),
      showCpu: spread([runs.with.show, runs.without.show], cpu),
      listCpu: spread([runs.with.list, runs.without.list], cpu),
    };
    const nsPerRecord = requestLogCost();
    const showRate = mean(runs.without.show.map((x) => x.requestsPerSecond));
    const requestLog = {
      nsPerRecord: round(nsPerRecord, 1),
      shareOfShow: round((nsPerRecord * showRate) / 1e9, 5),
    };
    return {
      rounds,
      secondsPerRun: base.durationMs / 1000,
      ...runs,
      ratio,
      noise,
      pageSawRequests,
      requestLog,
    };
  } finally {
    await browser.close();
    await emu.stop();
  }
}

/** One load run and the emulator's CPU time it took, per request. */
async function measured(emu: EmulatorProcess, options: LoadOptions): Promise<MeasuredRun> {
  const before = await emu.cpu();
  const result = await runLoad(options);
  const after = await emu.cpu();
  const us = after.user + after.system - before.user - before.system;
  return { ...result, cpuUsPerRequest: round(us / result.requests, 1) };
}

/** A console page, live, showing the machines. */
async function openConsole(browser: Browser, url: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
  await page.goto(url);
  await page.locator("tr.machine").first().waitFor({ timeout: 60_000 });
  return page;
}

/** The header's count of requests served, as the page last heard it. */
async function served(page: Page): Promise<number> {
  return Number.parseInt((await page.locator("header .served").textContent()) ?? "0", 10);
}

function ratios(withPage: MeasuredRun[], without: MeasuredRun[]): Ratios {
  const ratio = (pick: (r: MeasuredRun) => number, how: (xs: number[]) => number) =>
    round(how(withPage.map(pick)) / how(without.map(pick)), 3);
  return {
    requestsPerSecond: ratio((r) => r.requestsPerSecond, mean),
    p50: ratio((r) => r.latencyMs.p50, median),
    p99: ratio((r) => r.latencyMs.p99, median),
    cpuPerRequest: ratio((r) => r.cpuUsPerRequest, median),
  };
}

/** The largest |a / b − 1| of `pick` between two runs of the same side. */
function spread(sides: MeasuredRun[][], pick: (r: MeasuredRun) => number): number {
  let most = 0;
  for (const runs of sides)
    for (const a of runs) for (const b of runs) most = Math.max(most, pick(a) / pick(b) - 1);
  return round(most, 3);
}

/** Nanoseconds per record, over a million records of a show request. */
function requestLogCost(): number {
  const log = new RequestLog(() => 0);
  const count = 1_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++)
    log.record({
      method: "GET",
      route: "/machines/getMachinePublic",
      status: 200,
      ms: 1,
      caller: "ujane001",
    });
  return Number(process.hrtime.bigint() - started) / count;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** The middle value; of an even count, the mean of the two middle ones. */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1] + sorted[mid]) / 2 : sorted[Math.floor(mid)];
};
