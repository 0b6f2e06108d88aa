/**
 * A resource's cost in the plugin, in instructions (callgrind, every thread, whatever the load):
 * the release and the Go no-op plugin (bench/goNoop) each answer `Check` then `Diff` of an
 * unchanged Machine N times, as the engine asks them in a preview, after `GetPluginInfo`,
 * `CheckConfig` and `Configure`; the same run with no resource is the base, and
 * (count(N) − count(0)) / N is one resource's Check + Diff. Both plugins get the same bytes: the
 * Machine's inputs as the plugin route's benchmark program writes them (bench/pluginProgram.ts)
 * and, as its stored outputs, every output the schema declares. The plugin's checks ask the API
 * what they check against (the account, the catalog) once a process, as in a preview: an emulator
 * in this process answers, outside the count.
 *
 *   node -r ts-node/register/transpile-only bench/resourceInstructions.ts [--resources 200] [--refresh]
 *
 * The Go no-op runs twice: as the engine starts it, and with GOMAXPROCS=1. Under callgrind, which
 * runs one thread at a time, Go's idle processors spin looking for work between two requests, and
 * that spinning (about 15 M instructions a resource here) is counted with the rest; with one
 * processor there is none, so that row is the floor the release is held to.
 *
 * The refresh's count (`--refresh`) is the same with `Read` then `Diff` of an unchanged Machine,
 * as the engine asks them in a refresh, a few resources in flight: one machine the emulator holds,
 * made before any count, read by every resource; both plugins get the outputs and inputs the
 * release answers its import (an uncounted run). The reads share the account's listings
 * (provider/account/listSnapshot.ts), on the real clock: callgrind's slowness makes the plugin
 * take a few more of them than a refresh does (a listing serves reads for 2 s), which counts them.
 *
 * Needs valgrind on PATH; the release is built when stale (`npm run plugin:dist`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { spawn } from "node:child_process";
import { PluginClient, printedPort } from "../tools/plugin/pluginClient";
import { DECLARED_MACHINE, inFlight, readyMachine } from "../tools/plugin/machineRequests";
import { startE2eEmulator } from "../test/e2e/support/kit";
import { goNoopPluginDir } from "./releasePlugin";
import { counted, releaseExecutable } from "./startInstructions";

const URN = "urn:pulumi:bench::machines::vmapi:index:Machine::machine-1";
const ID = "psbench01";

/** Every output the schema declares for a Machine, each a value of its type, the inputs over them. */
export function storedOutputs(): Record<string, unknown> {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "plugin", "schema.json"), "utf8")) as {
    resources: Record<string, { properties: Record<string, { type?: string }> }>;
  };
  const outputs: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(schema.resources["vmapi:index:Machine"].properties)) {
    outputs[name] =
      spec.type === "number" || spec.type === "integer"
        ? 1
        : spec.type === "boolean"
          ? false
          : spec.type === "array"
            ? []
            : spec.type === "object"
              ? {}
              : `${name}-value`;
  }
  return { ...outputs, ...DECLARED_MACHINE, id: ID, state: "ready" };
}

/** Asks the plugin on `port` what a preview asks of `resources` unchanged Machines. */
export function preview(
  resources: number,
  settings: Record<string, string>,
): (port: string) => Promise<void> {
  const olds = storedOutputs();
  return async (port) => {
    const client = new PluginClient(port, 120_000);
    try {
      await client.pluginVersion();
      await client.configure(settings);
      for (let i = 0; i < resources; i++) {
        await client.check(URN, DECLARED_MACHINE, DECLARED_MACHINE);
        await client.diff(URN, ID, olds, DECLARED_MACHINE);
      }
    } finally {
      client.close();
    }
  };
}

/** A Machine's stored state: its outputs and its inputs. */
interface Stored {
  id: string;
  outputs: Record<string, unknown>;
  inputs: Record<string, unknown>;
}

/** Reads the engine keeps in flight in a refresh (`--parallel`'s default on this machine's two cores). */
const IN_FLIGHT = 8;
/** Resources a refresh reads before the counted ones, in the base too: the account's listing is taken among them. */
const FIRST_READS = IN_FLIGHT;

/**
 * Asks the plugin on `port` what a refresh asks of `resources` unchanged Machines, all of
 * `stored`: each resource's `Read` then its `Diff`, `IN_FLIGHT` resources at a time, after
 * `FIRST_READS` others (in the base too).
 */
export function refresh(
  resources: number,
  settings: Record<string, string>,
  stored: Stored,
): (port: string) => Promise<void> {
  return async (port) => {
    const client = new PluginClient(port, 120_000);
    try {
      await client.pluginVersion();
      await client.configure(settings);
      await inFlight(FIRST_READS + resources, IN_FLIGHT, async (i) => {
        const urn = `${URN}-${i}`;
        const read = await client.read(urn, stored.id, stored.outputs, stored.inputs);
        await client.diff(urn, stored.id, read.properties, read.inputs);
      });
    } finally {
      client.close();
    }
  };
}

/** A machine made in the emulator, and what the release answers its import (uncounted). */
export async function storedMachine(file: string, settings: Record<string, string>): Promise<Stored> {
  const id = await readyMachine(settings.apiKey, settings.baseUrl, "bench-read");
  const child = spawn(file, [], { stdio: ["ignore", "pipe", "ignore"] });
  try {
    const client = new PluginClient(await printedPort(child, 60_000), 60_000);
    try {
      await client.configure(settings);
      const read = await client.read(URN, id, {}, {});
      return { id, outputs: read.properties, inputs: read.inputs };
    } finally {
      client.close();
    }
  } finally {
    child.kill("SIGTERM");
  }
}

/** One plugin's count: all threads, millions of instructions, for `resources` Machines. */
async function allThreads(
  file: string,
  drive: (resources: number) => (port: string) => Promise<void>,
  resources: number,
  work: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const threads = await counted(file, [], drive(resources), work, env);
  return threads.reduce((a, b) => a + b, 0);
}

export interface ResourceCount {
  kind: "release" | "goNoop" | "goNoopOneProc";
  /** Millions of instructions, every thread, with no resource and with N. */
  baseM: number;
  withResourcesM: number;
  /** Instructions (thousands) of one resource's Check + Diff (a preview's), or Read + Diff (a refresh's). */
  perResourceK: number;
}

/** What is counted per resource: a preview's Check + Diff, or a refresh's Read + Diff. */
export type Shape = "preview" | "refresh";

export async function resourceInstructions(
  resources: number,
  shape: Shape = "preview",
): Promise<ResourceCount[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-resource-count-"));
  const emu = await startE2eEmulator();
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  try {
    const release = releaseExecutable(work);
    const stored = shape === "refresh" ? await storedMachine(release, settings) : undefined;
    const drive = (n: number) => (stored ? refresh(n, settings, stored) : preview(n, settings));
    const goNoop = path.join(goNoopPluginDir(), "pulumi-resource-vmapi");
    const runs: Record<ResourceCount["kind"], { file: string; env: NodeJS.ProcessEnv }> = {
      release: { file: release, env: {} },
      goNoop: { file: goNoop, env: {} },
      goNoopOneProc: { file: goNoop, env: { GOMAXPROCS: "1" } },
    };
    const rows: ResourceCount[] = [];
    // A refresh's reads keep Go's idle processors spinning under callgrind far longer than a
    // preview's checks (billions of instructions for a few resources): only the one-processor row.
    const kinds =
      shape === "refresh"
        ? (["release", "goNoopOneProc"] as const)
        : (["release", "goNoop", "goNoopOneProc"] as const);
    for (const kind of kinds) {
      const { file, env } = runs[kind];
      const baseM = await allThreads(file, drive, 0, work, env);
      const withResourcesM = await allThreads(file, drive, resources, work, env);
      rows.push({
        kind,
        baseM: Math.round(baseM * 10) / 10,
        withResourcesM: Math.round(withResourcesM * 10) / 10,
        perResourceK: Math.round(((withResourcesM - baseM) * 1000) / resources),
      });
    }
    return rows;
  } finally {
    await emu.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const { values } = parseArgs({ options: { resources: { type: "string" }, refresh: { type: "boolean" } } });
  resourceInstructions(Number(values.resources ?? 200), values.refresh ? "refresh" : "preview").then(
    (rows) => process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(
        `resourceInstructions: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
