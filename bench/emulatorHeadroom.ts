/**
 * Benchmark 3: what the emulator sustains on loopback. Throughput of show and list with 1,000
 * machines under 50 kept-alive clients; the same show sweep with a state file, where each read
 * is the first to see a machine's provisioning end; then its memory with 10,000 machines; then
 * show and list again with a web console page attached against none, side by side
 * (consoleHeadroom.ts). Each part runs the emulator CLI in its own child process (manual clock),
 * so figures are the server's own.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_SEED } from "../src/emulator";
import { consoleHeadroom, type ConsoleHeadroom } from "./consoleHeadroom";
import { startEmulatorProcess, type EmulatorProcess } from "./emulatorProcess";
import { keepAliveAgent, runLoad, send, type LoadResult } from "./loadGenerator";
import { MACHINE_INPUTS, control, round } from "./support";

const CONCURRENCY = 50;
const LOAD_MACHINES = 1_000;
const MEMORY_MACHINES = 10_000;
const BATCH = 1_000;
/** Rounds of the console comparison: each runs both sides, in alternating order. */
const CONSOLE_ROUNDS = 4;
/** A network holds 245 machines (.10–.254): the seed adds enough networks in the machines' region. */
const NETWORKS = Array.from({ length: 45 }, (_, i) => `nbench${i}`);

export interface MemoryFigures {
  heapUsedMB: number;
  rssMB: number;
}

export interface HeadroomResult {
  concurrency: number;
  machines: number;
  secondsPerRoute: number;
  show: LoadResult;
  list: LoadResult;
  create: LoadResult;
  /** With `--state-file`: one show per machine, each the first read after its provisioning ended. */
  advancingReads: LoadResult;
  memory: {
    machines: number;
    empty: MemoryFigures;
    full: MemoryFigures;
    delta: MemoryFigures;
    perMachineKB: { heapUsed: number; rss: number };
  };
  /** Show and list with a console page attached against none (absent from results before it). */
  console?: ConsoleHeadroom;
}

/** Runs benchmark 3 (`seconds` per measured route; about 2 × seconds + 15 s in all). */
export async function emulatorHeadroom(seconds = 10): Promise<HeadroomResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-bench-"));
  try {
    const seed = path.join(dir, "seed.json");
    fs.writeFileSync(seed, JSON.stringify(benchSeed()));
    const flags = ["--clock", "manual", "--seed", seed];
    const load = await throughput(flags, seconds * 1000);
    const advancingReads = await readsThatAdvance([...flags, "--state-file", path.join(dir, "state.json")]);
    const memory = await memoryAt(flags, MEMORY_MACHINES);
    const withConsole = await consoleHeadroom(
      flags,
      readyMachines,
      { concurrency: CONCURRENCY, durationMs: seconds * 1000 },
      CONSOLE_ROUNDS,
    );
    return {
      concurrency: CONCURRENCY,
      machines: LOAD_MACHINES,
      secondsPerRoute: seconds,
      ...load,
      advancingReads,
      memory,
      console: withConsole,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The default seed plus 45 networks of the individual account in the machines' region. */
function benchSeed() {
  const owner = DEFAULT_SEED.users.find((u) => u.apiKey === DEFAULT_SEED.keys.individual)!;
  const extra = NETWORKS.map((id, i) => ({
    id,
    name: `bench ${i}`,
    region: MACHINE_INPUTS.region,
    dtCreated: "2025-06-01T12:00:00.000Z",
    network: `10.100.${i}.0`,
    netmask: "255.255.255.0",
    teamId: null,
    userId: owner.id,
  }));
  return { ...DEFAULT_SEED, networks: [...DEFAULT_SEED.networks, ...extra] };
}

/** LOAD_MACHINES machines, all ready; their ids. */
async function readyMachines(emu: EmulatorProcess, create?: (result: LoadResult) => void): Promise<string[]> {
  const made = await createMachines(emu, LOAD_MACHINES, "load");
  create?.(made);
  await control(emu.url, "clock/advance", { ms: 10 * 60_000 }); // every machine ready
  const ids = await machineIds(emu);
  if (ids.length !== LOAD_MACHINES)
    throw new Error(`expected ${LOAD_MACHINES} machines, listed ${ids.length}`);
  return ids;
}

async function throughput(flags: string[], durationMs: number) {
  const emu = await startEmulatorProcess(flags);
  try {
    let create: LoadResult | undefined;
    const ids = await readyMachines(emu, (made) => (create = made));
    const base = { baseUrl: emu.url, apiKey: emu.apiKey, concurrency: CONCURRENCY, durationMs };
    const show = await runLoad({
      ...base,
      next: (i) => ({ method: "GET", path: `/machines/getMachinePublic?machineId=${ids[i % ids.length]}` }),
    });
    const list = await runLoad({ ...base, next: () => ({ method: "GET", path: "/machines/getMachines" }) });
    return { show, list, create: create! };
  } finally {
    await emu.stop();
  }
}

/**
 * Reads must stay off the disk: with a state file, every machine is shown once right after its
 * provisioning ended, so each read advances a lifecycle; none of them may cost a write.
 */
async function readsThatAdvance(flags: string[]): Promise<LoadResult> {
  const emu = await startEmulatorProcess(flags);
  try {
    await createMachines(emu, LOAD_MACHINES, "persisted");
    const ids = await machineIds(emu);
    await control(emu.url, "clock/advance", { ms: 10 * 60_000 });
    const result = await runLoad({
      baseUrl: emu.url,
      apiKey: emu.apiKey,
      concurrency: CONCURRENCY,
      durationMs: 10 * 60_000,
      maxRequests: ids.length,
      next: (i) => ({ method: "GET", path: `/machines/getMachinePublic?machineId=${ids[i]}` }),
    });
    if (result.statuses["200"] !== ids.length)
      throw new Error(`advancing reads: ${JSON.stringify(result.statuses)}`);
    return result;
  } finally {
    await emu.stop();
  }
}

async function memoryAt(flags: string[], machines: number) {
  const emu = await startEmulatorProcess(flags);
  try {
    const empty = figures(await emu.memory());
    for (let made = 0; made < machines; made += BATCH) {
      await createMachines(emu, Math.min(BATCH, machines - made), `mem${made}`);
    }
    // Read every machine once after their provisioning ended, so each holds its settled state.
    await control(emu.url, "clock/advance", { ms: 10 * 60_000 });
    await readAllPages(emu, machines);
    const full = figures(await emu.memory());
    const delta = {
      heapUsedMB: round(full.heapUsedMB - empty.heapUsedMB),
      rssMB: round(full.rssMB - empty.rssMB),
    };
    const perMachineKB = {
      heapUsed: round((delta.heapUsedMB * 1024) / machines, 1),
      rss: round((delta.rssMB * 1024) / machines, 1),
    };
    return { machines, empty, full, delta, perMachineKB };
  } finally {
    await emu.stop();
  }
}

/** Creates `count` machines through the HTTP API, 50 requests in flight; all must answer 200. */
async function createMachines(emu: EmulatorProcess, count: number, prefix: string): Promise<LoadResult> {
  const result = await runLoad({
    baseUrl: emu.url,
    apiKey: emu.apiKey,
    concurrency: CONCURRENCY,
    durationMs: 10 * 60_000,
    maxRequests: count,
    next: (i) => ({
      method: "POST",
      path: "/machines/createSingleMachinePublic",
      body: { ...MACHINE_INPUTS, machineName: `${prefix}-${i}`, networkId: NETWORKS[i % NETWORKS.length] },
    }),
  });
  if (result.statuses["200"] !== count)
    throw new Error(`creating machines: ${JSON.stringify(result.statuses)}`);
  return result;
}

async function machineIds(emu: EmulatorProcess): Promise<string[]> {
  const agent = keepAliveAgent(1);
  const res = await send(agent, emu.url, emu.apiKey, { method: "GET", path: "/machines/getMachines" });
  agent.destroy();
  return (JSON.parse(res.body) as { id: string }[]).map((m) => m.id);
}

async function readAllPages(emu: EmulatorProcess, machines: number): Promise<void> {
  const agent = keepAliveAgent(1);
  for (let skip = 0; skip < machines; skip += 1000) {
    const path = `/machines/getMachines?limit=1000&skip=${skip}`;
    const res = await send(agent, emu.url, emu.apiKey, { method: "GET", path });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
  }
  agent.destroy();
}

function figures(memory: NodeJS.MemoryUsage): MemoryFigures {
  return { heapUsedMB: round(memory.heapUsed / 2 ** 20), rssMB: round(memory.rss / 2 ** 20) };
}
