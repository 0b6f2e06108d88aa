/**
 * dist.sh's check of each release executable before it is packed: started as the engine starts
 * an installed plugin, with no node anywhere on PATH, it prints its port, answers `GetPluginInfo`
 * with package.json's version and `GetSchema` with plugin/schema.json, configures the provider
 * (`CheckConfig`, `Configure`), and takes the code cache it carries (VMAPI_PLUGIN_CODE_CACHE_CHECK=1:
 * snapshotMain.ts exits 3 if V8 rejects the provider's script's). Another
 * platform's executable runs under the EMULATOR command dist.sh gives (Debian's qemu-user-static).
 * With --converter, EXECUTABLE is the same file installed as the converter (named
 * `pulumi-converter-vmapi`): it prints its port and answers the `Converter` service's
 * `GetPluginInfo` with package.json's version.
 *
 * With --analyzer, the same named `pulumi-analyzer-policy-vmapi`: the `Analyzer` service's
 * `GetPluginInfo` answers the version.
 *
 *   node -r ts-node/register/transpile-only tools/plugin/smokeTest.ts [--converter|--analyzer] EXECUTABLE [EMULATOR ARGS...]
 *
 * exits 1, saying what was missing and what the executable printed on stderr, when it is not so.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ConverterClient, PluginClient, printedPort } from "./pluginClient";
import { pluginVersion } from "./releaseAssets";

const REPO = path.resolve(__dirname, "..", "..");
/** How long the executable may take to print its port, and to give each answer, under emulation too. */
const TIMEOUT_MS = 60_000;

/** What the executable answered. */
export interface SmokeAnswers {
  version: string;
  schema: unknown;
}

/**
 * Starts `command` (an executable, after its emulator's command if any) as the engine would and
 * asks it `GetPluginInfo` and `GetSchema`, then `CheckConfig` and `Configure` (which load the
 * provider); rejects with what it printed on stderr when it does not answer.
 */
export function askExecutable(command: readonly string[]): Promise<SmokeAnswers> {
  return asked(command, "GetPluginInfo, GetSchema, CheckConfig and Configure", async (port) => {
    const client = new PluginClient(port, TIMEOUT_MS);
    try {
      const version = await client.pluginVersion();
      const schema = JSON.parse(await client.schema()) as unknown;
      // What loads the provider: the host's executable compiles its provider's script then.
      await client.configure();
      return { version, schema };
    } finally {
      client.close();
    }
  });
}

/**
 * Starts `command` (the executable named `pulumi-converter-vmapi`, or with `Analyzer`
 * `pulumi-analyzer-policy-vmapi`, after its emulator's command if any) as the CLI starts a
 * converter (an analyzer) and asks it that service's `GetPluginInfo`;
 * resolves with the version, rejects as askExecutable does.
 */
export function askConverter(
  command: readonly string[],
  service: "Converter" | "Analyzer" = "Converter",
): Promise<string> {
  return asked(command, `the ${service} service's GetPluginInfo`, async (port) => {
    const client = new ConverterClient(port, TIMEOUT_MS, service);
    try {
      return await client.pluginVersion();
    } finally {
      client.close();
    }
  });
}

/** Starts `command` with no node on PATH, waits for its port and `ask`s it; the process is ended after. */
async function asked<T>(
  command: readonly string[],
  what: string,
  ask: (port: string) => Promise<T>,
): Promise<T> {
  const [file, ...args] = command;
  const child = spawn(file, args, {
    env: { PATH: "/nonexistent", VMAPI_PLUGIN_CODE_CACHE_CHECK: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const outcome = await printedPort(child, TIMEOUT_MS)
    .then(ask)
    .then(
      (answers) => ({ answers }),
      (err: Error) => ({ err }),
    );
  child.kill();
  await closed;
  if ("answers" in outcome) return outcome.answers;
  const printed = stderr.trim() === "" ? "nothing on stderr" : `on stderr:\n${stderr.trim()}`;
  throw new Error(
    `${command.join(" ")} did not answer ${what}: it ${outcome.err.message}; it printed ${printed}`,
  );
}

/** What is wrong with `answers` for a release of this checkout; empty when nothing is. */
export function smokeFailures(answers: SmokeAnswers): string[] {
  const failures: string[] = [];
  const version = pluginVersion();
  if (answers.version !== version)
    failures.push(`GetPluginInfo answered version ${answers.version}, not package.json's ${version}`);
  const shipped = JSON.parse(fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8")) as unknown;
  if (!isDeepStrictEqual(answers.schema, shipped))
    failures.push("GetSchema answered a schema other than plugin/schema.json");
  return failures;
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const service = argv[0] === "--converter" ? "Converter" : argv[0] === "--analyzer" ? "Analyzer" : undefined;
  const [executable, ...emulator] = service !== undefined ? argv.slice(1) : argv;
  if (!executable) {
    process.stderr.write("usage: smokeTest.ts [--converter|--analyzer] EXECUTABLE [EMULATOR ARGS...]\n");
    process.exit(2);
  }
  const command = [...emulator, executable];
  const failures = service
    ? askConverter(command, service).then((version) =>
        version === pluginVersion()
          ? []
          : [`GetPluginInfo answered version ${version}, not package.json's ${pluginVersion()}`],
      )
    : askExecutable(command).then(smokeFailures);
  failures
    .then((found) => found.map((failure) => `${command.join(" ")}: ${failure}`))
    .catch((err: Error) => [err.message])
    .then((found) => {
      for (const failure of found) process.stderr.write(`dist.sh: ${failure}\n`);
      process.exit(found.length === 0 ? 0 : 1);
    });
}
