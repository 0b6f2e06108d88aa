/**
 * The emulator fuzzed against api/openapi.json by Schemathesis (tools/fuzz/venv.sh: a pinned
 * venv outside the clone):
 *
 *   npm run fuzz                    fixed seed, a bounded number of examples: what .ci/run runs
 *   npm run fuzz -- --long          many more examples (about half an hour on 2 cores)
 *   npm run fuzz -- --seed N --examples N
 *
 * Every operation gets generated valid and invalid inputs, and stateful sequences that follow the
 * document's links (a create's id into its reads). What must hold, each failing the run: no 5xx
 * (no fault is injected, so none is expected), no crash and no hang (a request timeout, and the
 * emulator must still answer afterwards), every answer as the document says (status, headers,
 * body), a refused input in the API's error body naming what is wrong (hooks.py), no input the
 * document forbids accepted, and the state file loadable by a new emulator after the run. Two
 * control endpoints that would sabotage the run if obeyed (arming faults, throttling) are fuzzed
 * with invalid inputs only, which they must refuse; the reset runs last.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startEmulator } from "../../src/emulator";

const REPO = path.resolve(__dirname, "../..");
const HERE = __dirname;
const DOCUMENT = path.join(REPO, "api", "openapi.json");
/** Obeyed, these would turn the rest of the run into injected faults or 429s. */
const REFUSALS_ONLY = ["addFaults", "setRateLimit"];
/** Takes no input; run last, since it wipes what the run's dictionaries name. */
const LAST = ["reset"];

/**
 * The document's ids are free strings, so generated ones almost never name what the emulator
 * holds and most calls would stop at a 404. Schemathesis' dictionaries make a share of the
 * generated ids name the default seed's records and resources made before the run, so the
 * operations reach their rules (a start of a machine that exists, in whatever state the run has
 * left it). Bound as `location.name` = dictionary, probability.
 */
const BINDINGS: Record<string, [dictionary: string, probability: number]> = {
  "body.templateId": ["templates", 0.8],
  "body.networkId": ["networks", 0.5],
  "body.userId": ["users", 0.6],
  "path.machineId": ["machines", 0.7],
  "query.machineId": ["machines", 0.7],
  "body.machineId": ["machines", 0.5],
  "body.machine.ids[*]": ["machines", 0.7],
  "path.scriptId": ["scripts", 0.7],
  "query.scriptId": ["scripts", 0.7],
};
const SEEDED_IDS = {
  templates: ["tubsrv01", "tubdesk1", "twin1001"],
  networks: ["nindny2", "nindca1", "nindam1"],
  users: ["ujane001", "uadmin01", "umembr01"],
};

/** What a run is asked for. */
interface Options {
  seed: number;
  examples: number;
}

function options(argv: string[]): Options {
  const value = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? Number(argv[at + 1]) : undefined;
  };
  const long = argv.includes("--long");
  const chosen = { seed: value("--seed") ?? 20260115, examples: value("--examples") ?? (long ? 200 : 8) };
  for (const [name, n] of Object.entries(chosen)) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a whole number >= 1 (got ${n})`);
  }
  return chosen;
}

async function main(): Promise<number> {
  const { seed, examples } = options(process.argv.slice(2));
  const schemathesis = execFileSync("bash", [path.join(HERE, "venv.sh")], { encoding: "utf8" }).trim();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-fuzz-"));
  const stateFile = path.join(work, "state.json");
  const internalErrors: string[] = [];
  const emulator = await startEmulator({
    clock: "manual",
    stateFile,
    log: (line) => line.startsWith("internal error") && internalErrors.push(line),
  });
  console.log(
    `fuzzing the emulator at ${emulator.url} (seed ${seed}, ${examples} examples per operation; ${work})`,
  );
  const config = writeConfig(work, await makeResources(emulator.url, emulator.keys.individual));
  const common = [
    "--url",
    emulator.url,
    "-H",
    `X-Api-Key: ${emulator.keys.individual}`,
    "--seed",
    String(seed),
    "--config-file",
    config,
  ];
  const runs = [
    await schemathesisRun(schemathesis, work, "all", [
      ...common,
      "--max-examples",
      String(examples),
      ...[...REFUSALS_ONLY, ...LAST].flatMap((id) => ["--exclude-operation-id", id]),
    ]),
    // A copy of the state file as the main run left it, loaded at the end: the run's machines.
    copyStateFile(stateFile, path.join(work, "state-after-main-run.json")),
    await schemathesisRun(schemathesis, work, "refusals", [
      ...common,
      "--max-examples",
      String(examples),
      "--mode",
      "negative",
      "--phases",
      "coverage,fuzzing",
      ...REFUSALS_ONLY.flatMap((id) => ["--include-operation-id", id]),
    ]),
    await schemathesisRun(schemathesis, work, "last", [
      ...common,
      "--max-examples",
      String(examples),
      "--phases",
      "examples,coverage,fuzzing",
      ...LAST.flatMap((id) => ["--include-operation-id", id]),
    ]),
  ].filter((run): run is RunResult => run !== undefined);
  const problems = [
    ...runs.flatMap((run) => run.problems),
    ...(await afterTheRun(emulator, [path.join(work, "state-after-main-run.json"), stateFile])),
  ];
  problems.push(...internalErrors.map((line) => `the emulator logged ${line.split("\n")[0]}`));
  printFigures(runs);
  for (const problem of problems) console.error(`FAILED: ${problem}`);
  if (problems.length === 0) fs.rmSync(work, { recursive: true, force: true });
  return problems.length === 0 ? 0 : 1;
}

/** Machines (three templates, so three boot paths) and scripts made through the API before the run. */
async function makeResources(url: string, key: string): Promise<Record<string, string[]>> {
  const post = async (route: string, body: unknown) => {
    const answer = await fetch(`${url}${route}`, {
      method: "POST",
      headers: { "X-Api-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`making the run's resources: ${route} answered ${answer.status}`);
    return ((await answer.json()) as { id: string }).id;
  };
  const basics = { region: "East Coast (NY2)", machineType: "P5000", size: 50, billingType: "hourly" };
  const machines: string[] = [];
  for (const templateId of SEEDED_IDS.templates) {
    machines.push(
      await post("/machines/createSingleMachinePublic", {
        ...basics,
        machineName: `fuzz ${templateId}`,
        templateId,
      }),
    );
  }
  const scripts = [
    await post("/scripts/createScript", { scriptName: "fuzz boot", scriptText: "#!/bin/bash\necho boot\n" }),
    await post("/scripts/createScript", { scriptName: "fuzz once", scriptText: "echo once", runOnce: true }),
  ];
  return { ...SEEDED_IDS, machines, scripts };
}

/** The run's schemathesis.toml: the dictionaries of ids and what they are bound to. */
function writeConfig(work: string, dictionaries: Record<string, string[]>): string {
  const lines = Object.entries(dictionaries).flatMap(([name, values]) => [
    `[dictionaries.${name}]`,
    `values = ${JSON.stringify(values)}`,
    "",
  ]);
  lines.push("[parameters]");
  for (const [binding, [dictionary, probability]] of Object.entries(BINDINGS)) {
    lines.push(`${JSON.stringify(binding)} = { dictionary = "${dictionary}", probability = ${probability} }`);
  }
  const file = path.join(work, "schemathesis.toml");
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** What one Schemathesis run found, from its JSON report. */
interface RunResult {
  name: string;
  operations: number;
  generated: number;
  failures: number;
  seconds: number;
  problems: string[];
}

async function schemathesisRun(bin: string, work: string, name: string, args: string[]): Promise<RunResult> {
  const reportDir = path.join(work, name);
  const child = spawn(
    bin,
    [
      "--config-file",
      args[args.indexOf("--config-file") + 1],
      "run",
      DOCUMENT,
      ...args.filter((_, i) => args[i] !== "--config-file" && args[i - 1] !== "--config-file"),
      "--workers",
      "1",
      "--checks",
      "all",
      // Accepting every valid input is not the API's promise: a valid body may name a template
      // that does not exist (404) or a machine in the wrong state (409). Object-level
      // authorization needs several accounts' ids, which the permission tests cover.
      "--exclude-checks",
      "positive_data_acceptance,object_level_authorization",
      "--request-timeout",
      "10",
      "--generation-database",
      "none",
      "--no-color",
      "--report",
      "json",
      "--report-dir",
      reportDir,
    ],
    {
      cwd: work,
      stdio: "inherit",
      env: { ...process.env, PYTHONPATH: HERE, SCHEMATHESIS_HOOKS: "hooks" },
    },
  );
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  return readReport(name, reportDir, code);
}

function readReport(name: string, reportDir: string, code: number | null): RunResult {
  const file = fs.existsSync(reportDir)
    ? fs.readdirSync(reportDir).find((f) => f.endsWith(".json"))
    : undefined;
  if (file === undefined) {
    return {
      name,
      operations: 0,
      generated: 0,
      failures: 0,
      seconds: 0,
      problems: [`${name}: no report (exit ${code})`],
    };
  }
  const report = JSON.parse(fs.readFileSync(path.join(reportDir, file), "utf8")) as {
    running_time: number;
    operations: { tested: number };
    test_cases: { generated: number; unique_failures: number };
    failures: { title: string; operations: string[] }[];
    errors: unknown[];
  };
  const problems = [
    ...report.failures.map((f) => `${name}: ${f.title} in ${f.operations.join(", ")}`),
    ...(report.errors.length > 0 ? [`${name}: ${report.errors.length} errors (see above)`] : []),
    ...(code !== 0 && report.failures.length === 0 ? [`${name}: schemathesis exited ${code}`] : []),
  ];
  return {
    name,
    operations: report.operations.tested,
    generated: report.test_cases.generated,
    failures: report.test_cases.unique_failures,
    seconds: Math.round(report.running_time),
    problems,
  };
}

/**
 * The emulator after the run: still answering (no hang), then closed, and its state file loaded
 * by a new emulator (nothing half-written) whose dump shows what the run made.
 */
function copyStateFile(from: string, to: string): undefined {
  fs.copyFileSync(from, to);
  return undefined;
}

async function afterTheRun(
  emulator: Awaited<ReturnType<typeof startEmulator>>,
  stateFiles: string[],
): Promise<string[]> {
  const problems: string[] = [];
  const answer = await fetch(`${emulator.url}/_emulator/clock`, {
    signal: AbortSignal.timeout(10_000),
  }).catch((error: Error) => error);
  if (answer instanceof Error || !answer.ok) problems.push(`the emulator no longer answers after the run`);
  await emulator.close();
  for (const stateFile of stateFiles) {
    try {
      const reloaded = await startEmulator({ clock: "manual", stateFile });
      const dump = await reloaded.control.state();
      await reloaded.close();
      const made = `${dump.machines.length} machines, ${dump.scripts.length} scripts`;
      console.log(`state file ${path.basename(stateFile)}: reloaded, ${made}, clock at ${dump.now}`);
    } catch (error) {
      problems.push(`the state file ${stateFile} does not load after the run: ${(error as Error).message}`);
    }
  }
  return problems;
}

function printFigures(runs: RunResult[]): void {
  for (const run of runs) {
    console.log(
      `fuzz ${run.name}: ${run.operations} operations, ${run.generated} test cases generated, ${run.failures} failures, ${run.seconds} s`,
    );
  }
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(error.stack ?? error.message);
      process.exit(1);
    },
  );
}
