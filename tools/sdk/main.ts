/**
 * The Go, Python and Java SDKs of the plugin, generated from the schema it serves
 * (plugin/schema.json) by Pulumi's own generators: Go and Python by tools/codegen (pkg/v3 at the
 * version pinned in tools/codegen/go.mod), Java by Pulumi's Java language host (tools/java, pinned
 * in its go.mod) through the CLI, with the Maven build files from tools/sdk/javaBuildFiles.ts.
 *
 *   npm run sdk:generate   writes sdk/go, sdk/python and sdk/java (and removes files the
 *                          generators no longer write)
 *   npm run sdk:check      generates into a temporary folder and fails, naming the files, when
 *                          the committed SDKs differ from it; then builds sdk/java with Maven
 *                          and installs it into the cache's Maven repository (tools/java/sdk.sh)
 *                          (`.ci/run` runs it)
 *
 * Everything under sdk/go, sdk/python and sdk/java is generated except the Go module's own
 * files (HAND_KEPT), which `go mod tidy` keeps.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { generateJavaSdk } from "./javaSdk";
import { javaMavenRepository } from "../java/javaTools";

const REPO = path.resolve(__dirname, "..", "..");
const SCHEMA = "plugin/schema.json";
const CODEGEN_BUILD = path.join(REPO, "tools", "codegen", "build.sh");

/** Each SDK: the generator's language and the folder it owns. */
export const SDKS = [
  { language: "go", dir: "sdk/go" },
  { language: "python", dir: "sdk/python" },
  { language: "java", dir: "sdk/java" },
] as const;

/** Files under the SDK folders that no generator writes: the Go module's go.mod and go.sum. */
export const HAND_KEPT = new Set(["sdk/go/vmapi/go.mod", "sdk/go/vmapi/go.sum"]);

/**
 * Generated files that are also written elsewhere, by destination: the Python generator writes
 * the README into the package, while the pyproject.toml it writes names `README.md` beside itself
 * (Pulumi's own providers copy one there before they build), so `python -m build` finds it.
 */
export const COPIES: Readonly<Record<string, string>> = {
  "sdk/python/README.md": "sdk/python/pulumi_vmapi/README.md",
};

/** The generator's path, built into the cache the first time (its progress goes to stderr). */
function codegen(): string {
  const found = spawnSync("bash", [CODEGEN_BUILD], {
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
  });
  if (found.status !== 0) throw new Error(`could not find or build the SDK generator (${CODEGEN_BUILD})`);
  return found.stdout.trim();
}

/** Every file under `dir`, as paths relative to `dir`, sorted. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * The committed files of an SDK folder, relative to the repository: what git tracks there plus
 * new files it does not ignore (so a Python build's `build/` or `*.egg-info`, ignored by the
 * generated .gitignore, is not taken for a stale generated file).
 */
function committedFiles(dir: string): string[] {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "--", dir], {
    cwd: REPO,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files ${dir} failed: ${listed.stderr}`);
  return listed.stdout
    .split("\n")
    .filter((file) => file !== "" && fs.existsSync(path.join(REPO, file)))
    .sort();
}

/** Generates every SDK under `root`; returns the generated files, relative to the repository. */
function generate(root: string): Map<string, Buffer> {
  const bin = codegen();
  const files = new Map<string, Buffer>();
  for (const { language, dir } of SDKS) {
    const out = path.join(root, dir);
    if (language === "java") {
      generateJavaSdk(path.join(REPO, SCHEMA), out, path.join(root, "java-scratch"));
    } else {
      const run = spawnSync(
        bin,
        ["--schema", path.join(REPO, SCHEMA), "--language", language, "--out", out],
        {
          stdio: ["ignore", "inherit", "pipe"],
          encoding: "utf8",
        },
      );
      if (run.status !== 0) throw new Error(`codegen --language ${language} failed:\n${run.stderr}`);
    }
    for (const file of filesUnder(out))
      files.set(path.join(dir, file), fs.readFileSync(path.join(out, file)));
  }
  for (const [copy, original] of Object.entries(COPIES)) {
    const content = files.get(original);
    if (!content) throw new Error(`the generators wrote no ${original} to copy to ${copy}`);
    files.set(copy, content);
  }
  return files;
}

/** A committed file that is not what the generator writes, and how. */
export interface StaleFile {
  file: string;
  /** "missing", "differs from line N", or "not generated" (a file the generator no longer writes). */
  reason: string;
}

/** The committed SDK files (`committed`, relative to the repository) that differ from `generated`. */
export function staleFiles(generated: Map<string, Buffer>, committed: readonly string[]): StaleFile[] {
  const stale: StaleFile[] = [];
  for (const [file, content] of generated) {
    const full = path.join(REPO, file);
    if (!fs.existsSync(full)) stale.push({ file, reason: "missing" });
    else if (!fs.readFileSync(full).equals(content))
      stale.push({ file, reason: firstDifference(fs.readFileSync(full), content) });
  }
  for (const file of committed) {
    if (!generated.has(file) && !HAND_KEPT.has(file)) stale.push({ file, reason: "not generated" });
  }
  return stale.sort((a, b) => a.file.localeCompare(b.file));
}

/** "differs from line N" for two versions of a file. */
function firstDifference(actual: Buffer, expected: Buffer): string {
  const a = actual.toString("utf8").split("\n");
  const e = expected.toString("utf8").split("\n");
  const line = a.findIndex((text, i) => text !== e[i]);
  return `differs from line ${(line === -1 ? a.length : line) + 1}`;
}

function main(): number {
  const update = process.argv.includes("--update");
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-sdk-"));
  try {
    const generated = generate(temp);
    const committed = SDKS.flatMap(({ dir }) => committedFiles(dir));
    const stale = staleFiles(generated, committed);
    if (stale.length === 0) {
      console.log(`the Go, Python and Java SDKs are what ${SCHEMA} generates (${generated.size} files)`);
      if (!update) {
        // The Java SDK is checked by compiling it: a schema the generator takes can still make
        // Java that does not compile. Made once per SDK in the cache; found again at once.
        console.log(`sdk/java builds with Maven: installed in ${javaMavenRepository()}`);
      }
      return 0;
    }
    if (update) {
      for (const { file, reason } of stale) {
        const full = path.join(REPO, file);
        if (reason === "not generated") {
          fs.rmSync(full);
          console.log(`removed ${file}`);
        } else {
          fs.mkdirSync(path.dirname(full), { recursive: true });
          fs.writeFileSync(full, generated.get(file)!);
          console.log(`wrote ${file}`);
        }
      }
      return 0;
    }
    for (const { file, reason } of stale) console.error(`${file}: ${reason}`);
    console.error(
      `The SDKs under sdk/ are generated from ${SCHEMA} and never edited by hand: run \`npm run sdk:generate\`.`,
    );
    return 1;
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

if (require.main === module) {
  try {
    process.exit(main());
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
