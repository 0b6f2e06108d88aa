/**
 * dist.sh's check of each release executable before it is packed: started as the engine starts
 * an installed plugin, with no node anywhere on PATH, it prints its port, answers `GetPluginInfo`
 * with package.json's version and `GetSchema` with plugin/schema.json, and takes the code cache
 * it carries (VMAPI_PLUGIN_CODE_CACHE_CHECK=1: seaMain.ts exits 3 if V8 rejects it). Another
 * platform's executable runs under the EMULATOR command dist.sh gives (Debian's qemu-user-static).
 *
 *   node -r ts-node/register/transpile-only tools/plugin/smokeTest.ts EXECUTABLE [EMULATOR ARGS...]
 *
 * exits 1, saying what was missing and what the executable printed on stderr, when it is not so.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { PluginClient, printedPort } from "./pluginClient";
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
 * asks it `GetPluginInfo` and `GetSchema`; rejects with what it printed on stderr when it does
 * not answer.
 */
export async function askExecutable(command: readonly string[]): Promise<SmokeAnswers> {
  const [file, ...args] = command;
  const child = spawn(file, args, {
    env: { PATH: "/nonexistent", VMAPI_PLUGIN_CODE_CACHE_CHECK: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  let client: PluginClient | undefined;
  const asked = (async (): Promise<SmokeAnswers> => {
    client = new PluginClient(await printedPort(child, TIMEOUT_MS), TIMEOUT_MS);
    const version = await client.pluginVersion();
    return { version, schema: JSON.parse(await client.schema()) as unknown };
  })();
  const outcome = await asked.then(
    (answers) => ({ answers }),
    (err: Error) => ({ err }),
  );
  client?.close();
  child.kill();
  await closed;
  if ("answers" in outcome) return outcome.answers;
  const printed = stderr.trim() === "" ? "nothing on stderr" : `on stderr:\n${stderr.trim()}`;
  throw new Error(
    `${command.join(" ")} did not answer GetPluginInfo and GetSchema: it ${outcome.err.message}; it printed ${printed}`,
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
  const [executable, ...emulator] = process.argv.slice(2);
  if (!executable) {
    process.stderr.write("usage: smokeTest.ts EXECUTABLE [EMULATOR ARGS...]\n");
    process.exit(2);
  }
  const command = [...emulator, executable];
  askExecutable(command)
    .then((answers) => smokeFailures(answers).map((failure) => `${command.join(" ")}: ${failure}`))
    .catch((err: Error) => [err.message])
    .then((failures) => {
      for (const failure of failures) process.stderr.write(`dist.sh: ${failure}\n`);
      process.exit(failures.length === 0 ? 0 : 1);
    });
}
