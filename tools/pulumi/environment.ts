/**
 * The offline settings the CLI runs with: a file backend, a passphrase for secrets, its own
 * PULUMI_HOME, no update check and no plugin downloads. Each is taken from the caller's
 * environment when set there, so a user's own backend or passphrase wins.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";

const DYNAMIC_PLUGIN = "pulumi-resource-pulumi-nodejs";

/** The folder of the `@pulumi/pulumi` a program uses (its own copy, found from its folder). */
export function sdkDir(programDir: string): string {
  try {
    return path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [programDir] }));
  } catch {
    throw new Error(
      `@pulumi/pulumi is not installed for the program in ${programDir}: run \`npm install\` there`,
    );
  }
}

/**
 * The environment of one CLI run. `workdir` holds the defaults (`.vmapi/` of this repository):
 * backend in `backend/`, PULUMI_HOME in `pulumi-home/`, a generated passphrase in `passphrase`
 * (mode 0600) unless PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE is set.
 */
export function pulumiEnvironment(
  workdir: string,
  programDir: string,
  cli: string,
  base: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  const backend = path.join(workdir, "backend");
  if (!env.PULUMI_BACKEND_URL) {
    fs.mkdirSync(backend, { recursive: true });
    env.PULUMI_BACKEND_URL = `file://${backend}`;
  }
  env.PULUMI_HOME ||= path.join(workdir, "pulumi-home");
  if (!env.PULUMI_CONFIG_PASSPHRASE && !env.PULUMI_CONFIG_PASSPHRASE_FILE) {
    env.PULUMI_CONFIG_PASSPHRASE_FILE = passphraseFile(workdir);
  }
  env.PULUMI_SKIP_UPDATE_CHECK = "true";
  env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
  // The dynamic-provider plugin, pulumi-resource-pulumi-nodejs, is found next to the CLI (where
  // build.sh puts it, as the CLI's release archives do), else in the SDK's npm package on PATH
  // (the engine then warns that it uses it from $PATH).
  if (!fs.existsSync(path.join(path.dirname(cli), DYNAMIC_PLUGIN))) {
    env.PATH = [sdkDir(programDir), env.PATH ?? ""].join(path.delimiter);
  }
  return env;
}

/** A random passphrase kept in `workdir/passphrase`, readable by its owner only. */
function passphraseFile(workdir: string): string {
  const file = path.join(workdir, "passphrase");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(workdir, { recursive: true });
    // "wx": two runs starting at once must not overwrite each other's passphrase.
    try {
      fs.writeFileSync(file, randomBytes(24).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return file;
}
