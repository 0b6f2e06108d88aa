/**
 * `npm run pulumi -- <any pulumi arguments>`: the real `pulumi` CLI (v3.274.1, or v3.259.0 or newer, built
 * once by tools/pulumi-cli/build.sh) with offline settings, running the program of the current
 * folder (or of `--program DIR`): a Node program through the SDK's own language server, a YAML or
 * Java one with Pulumi's language host for it (built once into the cache), on this checkout's
 * plugin, installed into PULUMI_HOME (tools/pulumi/checkoutPlugin.ts).
 *
 * Everything after `--` goes to the CLI unchanged; the CLI refuses what it does not know and its
 * exit code is ours. Defaults live in .vmapi/ (git-ignored): the file backend, PULUMI_HOME and a
 * generated passphrase; set PULUMI_BACKEND_URL, PULUMI_HOME or PULUMI_CONFIG_PASSPHRASE to use
 * your own. If `npm run demo` started a local emulator that is no longer running, commands that
 * run the engine restart it on its state file first.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { parseInvocation, withClient } from "./args";
import { installCheckoutPlugin } from "./checkoutPlugin";
import { pulumiEnvironment } from "./environment";
import { programEntry, projectRuntime, startLanguageHost, type LanguageHost } from "./languageHost";
import { exitCodeOf, runCli } from "./processes";
import { ensureFreshBuild } from "../freshBuild";
import { installJavaLanguageHost, javaMavenRepository, withMavenRepository } from "../java/javaTools";
import { restartIfRecorded, WORKDIR } from "../localEmulator";
const { linkSelf } = require("../linkSelf.js") as { linkSelf: () => void };

const BUILD_SCRIPT = path.resolve(__dirname, "..", "pulumi-cli", "build.sh");
const YAML_SCRIPT = path.resolve(__dirname, "..", "pulumi-cli", "yaml.sh");

/** The CLI's path, built into the cache the first time (its progress goes to stderr). */
export function pulumiCli(): string {
  const found = spawnSync("bash", [BUILD_SCRIPT], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (found.status !== 0) throw new Error(`could not find or build the pulumi CLI (${BUILD_SCRIPT})`);
  return found.stdout.trim();
}

/**
 * Pulumi YAML's language host (tools/pulumi-cli/yaml.sh, built the first time), linked next to the
 * CLI: the CLI finds a language host there without the warning one on PATH gets on every run.
 */
export function yamlLanguageHost(cli: string): void {
  const linked = path.join(path.dirname(cli), "pulumi-language-yaml");
  if (fs.existsSync(linked)) return;
  const found = spawnSync("bash", [YAML_SCRIPT], { stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
  if (found.status !== 0)
    throw new Error(`could not find or build Pulumi YAML's language host (${YAML_SCRIPT})`);
  try {
    fs.symlinkSync(path.join(found.stdout.trim(), "pulumi-language-yaml"), linked);
  } catch (err) {
    // Another run linked it meanwhile.
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
}

/** Runs one CLI command line; resolves with the exit code to exit with. */
export async function runPulumi(argv: string[], from: string): Promise<number> {
  const invocation = parseInvocation(argv, from);
  linkSelf();
  ensureFreshBuild();
  const cli = pulumiCli();
  let env = pulumiEnvironment(WORKDIR, invocation.programDir, cli);
  let args = invocation.cliArgs;
  let host: LanguageHost | undefined;
  // A YAML program is run by the CLI with Pulumi YAML's language host, a Java program with
  // Pulumi's Java language host (installed in PULUMI_HOME; its Maven finds sdk/java in the
  // cache's repository); a Node program by ours. Every program but a Node one (whose resources
  // are dynamic) runs on the plugin, this checkout's installed in PULUMI_HOME as a user's is.
  const runtime = projectRuntime(invocation.programDir);
  if (runtime !== "nodejs") installCheckoutPlugin(cli, env);
  if (runtime === "yaml") yamlLanguageHost(cli);
  if (runtime === "java") {
    installJavaLanguageHost(cli, env);
    env = withMavenRepository(env, javaMavenRepository());
  }
  const entry = runtime === "yaml" || runtime === "java" ? undefined : programEntry(invocation.programDir);
  if (invocation.programCommandAt >= 0 && entry !== undefined) {
    await restartIfRecorded((line) => console.error(line));
    host = await startLanguageHost(invocation.programDir, entry);
    args = withClient(invocation, host.address);
  }
  const exit = await runCli(cli, args, invocation.programDir, env);
  const code = exitCodeOf(exit);
  host?.close(code !== 0);
  return code;
}

if (require.main === module) {
  // npm runs scripts from the package root; INIT_CWD is where the user typed the command.
  runPulumi(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd()).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
