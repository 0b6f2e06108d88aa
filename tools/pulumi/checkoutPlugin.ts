/**
 * This checkout's plugin, installed where the engine finds a user's installed plugin: under
 * PULUMI_HOME, as `resource-vmapi-v<version>`, by `pulumi plugin install resource vmapi <version>
 * --file <launcher>`. The examples' projects then have no `plugins:` section, as a user's
 * project has none: the engine finds the plugin from the version the SDK asks for (Go, Python,
 * Java) or the newest installed (Pulumi YAML).
 *
 * What is installed is a launcher, not a release build: it runs the Node that runs `npm run
 * pulumi` on the checkout's compiled entry (dist/provider/native/main.js), which `npm run pulumi`
 * compiles from src/ before every run when it changed. An edit of src/ is therefore served at the
 * next command, in seconds, where a single executable (`npm run plugin:dist`) takes a minute to
 * rebuild. The launcher is installed again only when it would differ (another checkout, another
 * Node, another version): a comparison of a few hundred bytes on every other run.
 *
 * It replaces only what it installed: a plugin of that version whose executable is one of its
 * launchers (each begins with LAUNCHER_MARK). A plugin the user installed there (a release, a
 * build of their own) is left as it is, and the run stops saying so. The install itself runs
 * under a lock (checkoutPlugin.sh), so that runs at the same time install once.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..");
const INSTALL_SCRIPT = path.join(__dirname, "checkoutPlugin.sh");

/** The plugin's name, as Pulumi names its kind and folder. */
const PLUGIN = "pulumi-resource-vmapi";

/** The version the plugin reports and the SDKs ask for: plugin/schema.json's. */
export function checkoutPluginVersion(): string {
  const schema = JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")) as {
    version?: string;
  };
  if (!schema.version) throw new Error("plugin/schema.json has no version");
  return schema.version;
}

/** `value` as one word for sh, whatever it holds. */
function shellQuoted(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * How every launcher this tool writes begins, and those earlier versions of it wrote: what tells
 * the plugins it installed from any other.
 */
export const LAUNCHER_MARK = `#!/bin/sh\n# ${PLUGIN} of the checkout `;

/** The launcher's text: `node` (this process's Node by default) on the checkout's compiled entry. */
export function checkoutPluginLauncher(node: string = process.execPath): string {
  const entry = path.join(REPO, "dist", "provider", "native", "main.js");
  return [
    `${LAUNCHER_MARK}${REPO}, installed by its \`npm run pulumi\``,
    "# (tools/pulumi/checkoutPlugin.ts): the checkout's compiled plugin, as fresh as its src/.",
    `exec ${shellQuoted(node)} ${shellQuoted(entry)} "$@"`,
    "",
  ].join("\n");
}

/** Where Pulumi keeps the plugin of `version` under `pulumiHome`. */
export function installedPluginFile(pulumiHome: string, version: string): string {
  return path.join(pulumiHome, "plugins", `resource-vmapi-v${version}`, PLUGIN);
}

/** The bytes of `file`; undefined when there is none (or another run is installing it again). */
function contentOf(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Installs the checkout's launcher into `env`'s PULUMI_HOME with `cli` (`pulumi plugin install
 * --reinstall`, under checkoutPlugin.sh's lock), unless the plugin installed there is that
 * launcher already. Another launcher of that version (another checkout's, another Node's) is
 * replaced, and stderr says so; a plugin this tool did not install is left as it is, and this
 * throws, saying what is there and what to do.
 */
export function installCheckoutPlugin(cli: string, env: NodeJS.ProcessEnv): void {
  if (!env.PULUMI_HOME) throw new Error("PULUMI_HOME must be set to install the checkout's plugin");
  const version = checkoutPluginVersion();
  const launcher = checkoutPluginLauncher();
  const installed = installedPluginFile(env.PULUMI_HOME, version);
  if (contentOf(installed)?.equals(Buffer.from(launcher))) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-plugin-"));
  try {
    const file = path.join(dir, PLUGIN);
    fs.writeFileSync(file, launcher, { mode: 0o755 });
    const run = spawnSync("bash", [INSTALL_SCRIPT, cli, version, file, LAUNCHER_MARK], {
      env,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    if (run.status !== 0) throw new Error(run.stderr.trim() || `${INSTALL_SCRIPT} exited ${run.status}`);
    process.stderr.write(run.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
