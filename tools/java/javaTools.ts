/**
 * What Java programs and the Java SDK need from the cache, found or made by the scripts beside
 * this file: Pulumi's Java language host (build.sh) and the Maven repository holding sdk/java
 * installed with everything the Java quickstart needs (sdk.sh).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";

const HERE = __dirname;

/** The executable the CLI runs `runtime: java` programs with. */
export const JAVA_LANGUAGE_HOST = "pulumi-language-java";

/** Runs `bash <script>` and returns the path it prints (its progress goes to stderr). */
function printedPath(script: string, what: string): string {
  const run = spawnSync("bash", [path.join(HERE, script)], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`could not find or make ${what} (tools/java/${script})`);
  return run.stdout.trim();
}

/** The folder holding the Java language host, built into the cache the first time. */
export function javaLanguageHostDir(): string {
  return printedPath("build.sh", "Pulumi's Java language host");
}

/** The Maven local repository with sdk/java installed, made in the cache the first time. */
export function javaMavenRepository(): string {
  return printedPath("sdk.sh", "the Maven repository of the Java SDK");
}

/** The pulumi-java version pinned in tools/java/go.mod, without its "v": "1.22.0". */
export function javaLanguageHostVersion(): string {
  const goMod = fs.readFileSync(path.join(HERE, "go.mod"), "utf8");
  const version = /^\s*github\.com\/pulumi\/pulumi-java\/pkg v(\S+)/m.exec(goMod)?.[1];
  if (version === undefined) throw new Error("tools/java/go.mod pins no github.com/pulumi/pulumi-java/pkg");
  return version;
}

/**
 * Installs the Java language host into `env`'s PULUMI_HOME as Pulumi installs the ones it
 * downloads (`pulumi plugin install language java <version> --file <host>`): the CLI finds a
 * language host there or on PATH (which warns on every run), not next to itself as it does the
 * languages it ships. A marker in the plugin's folder names the build it came from, so a rebuilt
 * host (a new pin) is installed again.
 */
export function installJavaLanguageHost(cli: string, env: NodeJS.ProcessEnv): void {
  const host = path.join(javaLanguageHostDir(), JAVA_LANGUAGE_HOST);
  const version = javaLanguageHostVersion();
  if (!env.PULUMI_HOME) throw new Error("PULUMI_HOME must be set to install the Java language host");
  const marker = path.join(env.PULUMI_HOME, "plugins", `language-java-v${version}`, ".vmapi-installed-from");
  if (fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === host) return;
  const args = ["plugin", "install", "language", "java", `v${version}`, "--file", host, "--reinstall"];
  const run = spawnSync(cli, args, { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (run.status !== 0) throw new Error(`pulumi ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  fs.writeFileSync(marker, host);
}

/**
 * The JVM options of every `mvn` the language host starts (MAVEN_OPTS):
 * - the local repository `repository`;
 * - `jansi.noreset`: Debian's Maven 3.8.7 writes a terminal reset code to stdout as it exits,
 *   which turns the JSON of the host's plugin discovery (`mvn ... exec:java` of the SDK's
 *   `packages` command) into something it cannot read, and it then finds no plugins;
 * - `TieredStopAtLevel=1` (the JIT's first tier only): the host starts a new Maven JVM two or three
 *   times per command, each short-lived, and on 2 busy cores the optimizing compiler's threads
 *   cost more than they save: one `mvn compile exec:java` of the quickstart took 12.4 s without it
 *   and 4.4 s with it (the program runs in that JVM too; it waits on the engine, not on the CPU).
 */
export function mavenOptions(repository: string): string {
  // MAVEN_OPTS is split on white space: a path with a space would be two options.
  if (/\s/.test(repository)) {
    throw new Error(`the Maven repository's path has a space: ${repository} (set VMAPI_CACHE_DIR)`);
  }
  return `-XX:TieredStopAtLevel=1 -Djansi.noreset=true -Dmaven.repo.local=${repository}`;
}

/** `env` with mavenOptions after whatever MAVEN_OPTS it had (the JVM takes the last `-D` of a name). */
export function withMavenRepository(env: NodeJS.ProcessEnv, repository: string): NodeJS.ProcessEnv {
  return { ...env, MAVEN_OPTS: [env.MAVEN_OPTS, mavenOptions(repository)].filter(Boolean).join(" ") };
}
