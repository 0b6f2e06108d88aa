/**
 * The Java SDK (sdk/java): Pulumi's own Java generator, the Java language host's GeneratePackage
 * (tools/java), run by the CLI as `pulumi package gen-sdk --language java --local`, plus the Maven
 * build files it does not write (javaBuildFiles.ts). `--local` is the generator's mode without
 * Gradle files: it writes the sources and their version.txt, and the build files come from us.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { javaBuildFiles, type JavaPackageSpec } from "./javaBuildFiles";
import { javaLanguageHostDir } from "../java/javaTools";
import { pulumiCli } from "../pulumi/main";

/** Writes the Java SDK of the schema at `schemaPath` into `out` (a new folder); `scratch` is a work folder. */
export function generateJavaSdk(schemaPath: string, out: string, scratch: string): void {
  const cli = pulumiCli();
  const host = javaLanguageHostDir();
  const home = path.join(scratch, "pulumi-home");
  fs.mkdirSync(home, { recursive: true });
  const generated = path.join(scratch, "gen-sdk");
  const run = spawnSync(
    cli,
    ["package", "gen-sdk", schemaPath, "--language", "java", "--local", "--out", generated],
    {
      cwd: scratch,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      // Offline and on its own: a PULUMI_HOME of its own, no backend but a folder, no downloads;
      // the language host from the cache, on PATH (the CLI's warning about that is dropped with
      // the rest of its output on success).
      env: {
        ...process.env,
        PATH: [host, process.env.PATH ?? ""].join(path.delimiter),
        PULUMI_HOME: home,
        PULUMI_BACKEND_URL: `file://${home}`,
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      },
    },
  );
  if (run.status !== 0) {
    throw new Error(`pulumi package gen-sdk --language java failed:\n${run.stdout}${run.stderr}`);
  }
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.renameSync(path.join(generated, "java"), out);
  const spec = JSON.parse(fs.readFileSync(schemaPath, "utf8")) as JavaPackageSpec;
  for (const [file, content] of javaBuildFiles(spec)) {
    fs.mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    fs.writeFileSync(path.join(out, file), content);
  }
}
