/**
 * The plugin route's program of benchmarks 4 and 5: `count` Machines in Pulumi YAML, run by the CLI
 * with Pulumi YAML's language host, on the plugin a folder named under `plugins: providers` holds
 * (this repository's `plugin/`, the npm package's launcher; or bench/goNoop's no-op), or, with no
 * folder, on the plugin Pulumi has installed (the release, bench/releasePlugin.ts), as a user's
 * program has no `plugins:` section. Pulumi YAML has no loops, so the program is written at bench
 * time into a temporary folder. Its machines are those of test/e2e/programs/machines, the dynamic
 * route's program: auto-named, C4, 50 GB, hourly, one template, and the program's one output is
 * their ids.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DECLARED_MACHINE } from "../tools/plugin/machineRequests";

/** The repository's plugin folder: the npm package's launcher. */
export const PLUGIN_DIR = path.resolve(__dirname, "..", "plugin");

/** A program written into a temporary folder, and how to remove it. */
export interface GeneratedProgram {
  dir: string;
  remove(): void;
}

/**
 * Writes the YAML program of `count` machines of `templateId` into a new temporary folder, on the
 * plugin in `pluginDir` (none: the installed one).
 */
export function pluginMachinesProgram(
  count: number,
  templateId: string,
  pluginDir?: string,
): GeneratedProgram {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-bench-yaml-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), machinesYaml(count, templateId, pluginDir));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** The text of that program's Pulumi.yaml. */
export function machinesYaml(count: number, templateId: string, pluginDir?: string): string {
  const names = Array.from({ length: count }, (_, i) => `worker${i}`);
  const properties = Object.entries({ ...DECLARED_MACHINE, templateId });
  const machine = (name: string) =>
    [
      `  ${name}:`,
      `    type: vmapi:index:Machine`,
      `    properties:`,
      ...properties.map(([key, value]) => `      ${key}: ${value}`),
    ].join("\n");
  return [
    `name: vmapi-bench-plugin-machines`,
    `description: ${count} auto-named Machines on the plugin (written by bench/pluginProgram.ts)`,
    `runtime: yaml`,
    ...(pluginDir === undefined
      ? []
      : [`plugins:`, `  providers:`, `    - name: vmapi`, `      path: ${pluginDir}`]),
    `resources:`,
    ...names.map(machine),
    `outputs:`,
    `  machineIds:`,
    ...names.map((name) => `    - \${${name}.machineId}`),
    ``,
  ].join("\n");
}
