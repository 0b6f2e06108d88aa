/**
 * Benchmark 9: 1,000 Scripts in one stack on the plugin as users install it (the release, on the
 * plain `pulumi` CLI, a Pulumi YAML program), and the plugin's peak RSS in each command: `up`,
 * `preview --expect-no-changes`, `refresh` at the engine's default `--parallel` and at
 * FLEET_PARALLEL, `destroy`, each as benchmark 6 runs it at scale (SCALE_COMMAND_ARGS). The
 * peak is the kernel's high-water mark of the release's processes, read from outside them
 * (bench/processPeak.ts), since the engine kills its plugins when a command ends. The refreshes,
 * each command's peak, run REFRESHES times and their median is reported with every run.
 * Against an emulator without limit or faults: the figures are the engine's and the plugin's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connectionConfig, startE2eEmulator } from "../test/e2e/support/kit";
import { PlainCli } from "../test/e2e/support/plainCli";
import { COMMAND_TIMEOUT_MS, SCALE_COMMAND_ARGS, type ScaleCommand } from "./fleet";
import { watchPeakRss } from "./processPeak";
import { installReleasePlugin } from "./releasePlugin";
import { median, timed } from "./support";

/** Refreshes of each kind, their median reported. */
const REFRESHES = 3;

/** The commands, in the order run (benchmark 6's at scale). */
type PluginScriptCommand = ScaleCommand["command"];
const PLUGIN_SCRIPT_COMMANDS: readonly PluginScriptCommand[] = [
  "up",
  "preview",
  "refreshDefault",
  "refresh",
  "destroy",
];

/** One command's median wall time and peak RSS, and every run's. */
export interface PluginScriptRow {
  command: PluginScriptCommand;
  ms: number;
  peakRssMB: number;
  runs: Array<{ ms: number; peakRssMB: number; processes: number }>;
}

/** What benchmark 9 measured. */
export interface PluginScriptsResult {
  scripts: number;
  rows: PluginScriptRow[];
  /** The highest median peak of the commands, the figure the target judges. */
  peakRssMB: number;
}

/** The text of a Pulumi YAML program of `count` auto-named Scripts; the first one's text is a secret. */
export function scriptsYaml(count: number): string {
  const script = (i: number) => [
    `  script${i}:`,
    `    type: vmapi:index:Script`,
    `    properties:`,
    i === 0
      ? `      scriptText:\n        fn::secret: "#!/bin/bash\\necho hello\\n"`
      : `      scriptText: "#!/bin/bash\\necho hello\\n"`,
  ];
  return [
    `name: vmapi-bench-plugin-scripts`,
    `description: ${count} auto-named Scripts on the installed plugin (written by bench/pluginScripts.ts)`,
    `runtime: yaml`,
    `resources:`,
    ...Array.from({ length: count }, (_, i) => script(i)).flat(),
    ``,
  ].join("\n");
}

/** Runs benchmark 9 with `scripts` Scripts. */
export async function pluginScriptsBenchmark(scripts: number): Promise<PluginScriptsResult> {
  const emu = await startE2eEmulator();
  const plain = PlainCli.create();
  const program = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-bench-scripts-"));
  let stackName: string | undefined;
  try {
    const executable = path.join(
      installReleasePlugin(String(plain.env.PULUMI_HOME)),
      "pulumi-resource-vmapi",
    );
    fs.writeFileSync(path.join(program, "Pulumi.yaml"), scriptsYaml(scripts));
    const stack = await plain.stack(program, connectionConfig(emu, emu.keys.individual));
    stackName = stack.name;
    const once = async (command: PluginScriptCommand) => {
      const watch = watchPeakRss(executable);
      const { ms } = await timed(() =>
        plain.ok(
          [
            ...SCALE_COMMAND_ARGS[command],
            ...(command === "preview" ? ["--expect-no-changes"] : []),
            "--stack",
            stack.name,
          ],
          { cwd: program, timeoutMs: COMMAND_TIMEOUT_MS },
        ),
      ).catch((error: unknown) => {
        watch.stop();
        throw error;
      });
      const peak = watch.stop();
      return { ms: Math.round(ms), peakRssMB: peak.peakMB, processes: peak.processes };
    };
    const runs = new Map<PluginScriptCommand, Array<Awaited<ReturnType<typeof once>>>>(
      PLUGIN_SCRIPT_COMMANDS.map((c) => [c, []]),
    );
    runs.get("up")!.push(await once("up"));
    runs.get("preview")!.push(await once("preview"));
    for (let round = 0; round < REFRESHES; round++)
      for (const command of ["refreshDefault", "refresh"] as const)
        runs.get(command)!.push(await once(command));
    runs.get("destroy")!.push(await once("destroy"));
    const rows = PLUGIN_SCRIPT_COMMANDS.map((command): PluginScriptRow => {
      const all = runs.get(command)!;
      return {
        command,
        ms: Math.round(median(all.map((r) => r.ms))),
        peakRssMB: median(all.map((r) => r.peakRssMB)),
        runs: all,
      };
    });
    return { scripts, rows, peakRssMB: Math.max(...rows.map((r) => r.peakRssMB)) };
  } finally {
    if (stackName)
      await plain.run(["stack", "rm", "--yes", "--force", "--stack", stackName], { cwd: program });
    plain.dispose();
    fs.rmSync(program, { recursive: true, force: true });
    await emu.close();
  }
}
