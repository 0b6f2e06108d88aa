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
 *   node -r ts-node/register/transpile-only bench/resourceInstructions.ts [--resources 200]
 *
 * The Go no-op runs twice: as the engine starts it, and with GOMAXPROCS=1. Under callgrind, which
 * runs one thread at a time, Go's idle processors spin looking for work between two requests, and
 * that spinning (about 15 M instructions a resource here) is counted with the rest; with one
 * processor there is none, so that row is the floor the release is held to.
 *
 * Needs valgrind on PATH; the release is built when stale (`npm run plugin:dist`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { PluginClient } from "../tools/plugin/pluginClient";
import { startE2eEmulator } from "../test/e2e/support/kit";
import { goNoopPluginDir } from "./releasePlugin";
import { counted, releaseExecutable } from "./startInstructions";

const URN = "urn:pulumi:bench::machines::vmapi:index:Machine::machine-1";
const ID = "psbench01";

/** The program's inputs of one Machine (bench/pluginProgram.ts's). */
export const INPUTS = {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
};

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
  return { ...outputs, ...INPUTS, id: ID, state: "ready" };
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
        await client.check(URN, INPUTS, INPUTS);
        await client.diff(URN, ID, olds, INPUTS);
      }
    } finally {
      client.close();
    }
  };
}

/** One plugin's count: all threads, millions of instructions, for `resources` Machines. */
async function allThreads(
  file: string,
  resources: number,
  settings: Record<string, string>,
  work: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const threads = await counted(file, [], preview(resources, settings), work, env);
  return threads.reduce((a, b) => a + b, 0);
}

export interface ResourceCount {
  kind: "release" | "goNoop" | "goNoopOneProc";
  /** Millions of instructions, every thread, with no resource and with N. */
  baseM: number;
  withResourcesM: number;
  /** Instructions (thousands) of one resource's Check + Diff. */
  perResourceK: number;
}

export async function resourceInstructions(resources: number): Promise<ResourceCount[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-resource-count-"));
  const emu = await startE2eEmulator();
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  try {
    const goNoop = path.join(goNoopPluginDir(), "pulumi-resource-vmapi");
    const runs: Record<ResourceCount["kind"], { file: string; env: NodeJS.ProcessEnv }> = {
      release: { file: releaseExecutable(work), env: {} },
      goNoop: { file: goNoop, env: {} },
      goNoopOneProc: { file: goNoop, env: { GOMAXPROCS: "1" } },
    };
    const rows: ResourceCount[] = [];
    for (const kind of ["release", "goNoop", "goNoopOneProc"] as const) {
      const { file, env } = runs[kind];
      const baseM = await allThreads(file, 0, settings, work, env);
      const withResourcesM = await allThreads(file, resources, settings, work, env);
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
  const { values } = parseArgs({ options: { resources: { type: "string" } } });
  resourceInstructions(Number(values.resources ?? 200)).then(
    (rows) => process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(
        `resourceInstructions: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
