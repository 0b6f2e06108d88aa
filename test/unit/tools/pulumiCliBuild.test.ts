/**
 * Which `pulumi` CLI a run uses (tools/pulumi-cli/build.sh): VMAPI_PULUMI when set, else the build
 * of the version pinned in tools/pulumi-cli/go.mod, never a `pulumi` that happens to be on PATH
 * (a newer one there would make a run prove things on a CLI nobody pinned). `--find-only` stands
 * in for the build (minutes), which these tests never start: an empty cache answers exit 1.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const REPO = path.resolve(__dirname, "..", "..", "..");
const BUILD = path.join(REPO, "tools", "pulumi-cli", "build.sh");
/** The CLI version a go.mod of tools/pulumi-cli pins. */
const pinnedIn = (...folder: string[]) =>
  /github\.com\/pulumi\/pulumi\/pkg\/v3 (v\S+)/.exec(
    fs.readFileSync(path.join(REPO, "tools", "pulumi-cli", ...folder, "go.mod"), "utf8"),
  )![1];
const PINNED = pinnedIn();
const LOWEST = pinnedIn("lowest");

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-cli-build-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An executable `pulumi` at `file` whose `pulumi version` prints `version`. */
function fakeCli(file: string, version: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  return file;
}

/** build.sh --find-only with an empty cache of its own and `onPath` first on PATH. */
function findCli(env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const onPath = fakeCli(path.join(dir, "path", "pulumi"), "v3.999.0");
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.VMAPI_PULUMI;
  const run = spawnSync("bash", [BUILD, "--find-only"], {
    env: {
      ...base,
      PATH: `${path.dirname(onPath)}${path.delimiter}${process.env.PATH ?? ""}`,
      VMAPI_CACHE_DIR: path.join(dir, "cache"),
      ...env,
    },
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout.trim(), stderr: run.stderr };
}

test("build.sh: a newer pulumi on PATH and no pinned build → not taken (the pinned one is to be built)", () => {
  const run = findCli();
  expect(run.stdout).toBe("");
  expect(run.code).toBe(1);
});

test("build.sh: the pinned build in the cache and a newer pulumi on PATH → the pinned build", () => {
  const pinned = fakeCli(path.join(dir, "cache", `pulumi-${PINNED}`, "bin", "pulumi"), PINNED);
  const run = findCli();
  expect(run).toMatchObject({ code: 0, stdout: pinned });
});

test("build.sh: VMAPI_PULUMI names a supported CLI → that one, the deliberate override", () => {
  const chosen = fakeCli(path.join(dir, "chosen", "pulumi"), LOWEST);
  expect(findCli({ VMAPI_PULUMI: chosen })).toMatchObject({ code: 0, stdout: chosen });
});

test("build.sh: VMAPI_PULUMI names a CLI older than the lowest supported → refused, naming it", () => {
  const old = fakeCli(path.join(dir, "old", "pulumi"), "v3.100.0");
  const run = findCli({ VMAPI_PULUMI: old });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`VMAPI_PULUMI=${old} is not a pulumi CLI ${LOWEST} or newer`);
});
