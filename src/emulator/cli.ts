#!/usr/bin/env node
/**
 * `vmapi-emulator` / `npm run emulator -- [flags]`: starts the emulator, prints one JSON line
 * `{"url": ..., "console": ..., "keys": {...}}` on stdout when ready, logs requests to stderr, and stops cleanly
 * on SIGINT/SIGTERM. Bad flags exit 2 with a message naming the flag.
 */
import * as fs from "node:fs";
import { parseArgs } from "node:util";
import { EMULATOR_DEFAULTS, startEmulator, type EmulatorOptions, type RunningEmulator } from "./index";
import { StateFileError } from "./state/persistence";
import { parseSeed } from "./state/seed";
import { jsonSyntaxReason } from "../contract/formatIssues";

const d = EMULATOR_DEFAULTS;
const HELP = `Usage: vmapi-emulator [flags]

Runs an emulator of the VM machine API on loopback.

  --port N           TCP port (0 = any free port; default ${d.port})
  --host HOST        interface to listen on (default ${d.host}); on another interface the API
                     answers the network, the console and control endpoints loopback only
  --remote-control   let the console and control endpoints answer other machines too: they
                     show every account's machines, users' emails and script texts, and can
                     reset, stop and fault anything, with no key (default: loopback only)
  --seed FILE        seed JSON (accounts, keys, networks, templates, capacity); default built in
  --state-file FILE  persist state atomically before answering every change; reload it on start
  --time-scale X     multiply every duration, lifecycle steps, the 4 h delegation
                     lifetime and fault latency (0.01: 60 s provisioning takes 0.6 s; default ${d.timeScale})
  --clock real|manual  manual: time moves only via POST /_emulator/clock/advance (default ${d.clock})
  --fault-rate R     probability 0..1 of a random fault per API request (default ${d.faultRate})
  --fault-seed N     seed of the random fault sequence, any integer (default ${d.faultSeed})
  --rate-limit R[/s] throttle each API key to R requests per second of the emulator's clock
                     (a token bucket; not scaled by --time-scale); past it, 429 rate_limited
                     with Retry-After in seconds (default ${d.rateLimit})
  --rate-burst B     requests a key may make at once before the rate applies, an integer
                     >= 1 (default: one second's worth of the rate); needs --rate-limit
  --help             show this help

When ready, prints one JSON line on stdout: {"url": "...", "console": "...", "keys": {...}}.
The web console is at <url>/_console/: machines, requests, faults, in a browser.
Control endpoints (never throttled): /_emulator/state, /_emulator/reset, /_emulator/faults,
/_emulator/rate-limit, /_emulator/clock/advance, /_emulator/capacity,
/_emulator/machines/{id}/stop and /rename (see docs/emulator.md).
`;

/** Flags that take a value; a value that looks like a negative number is still theirs. */
const VALUE_FLAGS = [
  "port",
  "host",
  "seed",
  "state-file",
  "time-scale",
  "clock",
  "fault-rate",
  "fault-seed",
  "rate-limit",
  "rate-burst",
];

/** A bad flag: the message names it; the process exits 2. */
export class UsageError extends Error {}

/** Parses argv (without node and script) into options; throws UsageError naming the flag. */
export function parseFlags(argv: string[]): EmulatorOptions | "help" {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: joinNegativeValues(argv),
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(VALUE_FLAGS.map((flag) => [flag, { type: "string" as const }])),
        help: { type: "boolean" },
        "remote-control": { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  const str = (name: string) => values[name] as string | undefined;
  return {
    port: numberFlag(
      "--port",
      str("port"),
      (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
      "an integer 0..65535",
    ),
    host: str("host"),
    seed: str("seed") === undefined ? undefined : readSeed(str("seed") as string),
    stateFile: str("state-file"),
    timeScale: numberFlag("--time-scale", str("time-scale"), (n) => n >= 0, "a number >= 0"),
    clock: clockFlag(str("clock")),
    faultRate: numberFlag(
      "--fault-rate",
      str("fault-rate"),
      (n) => n >= 0 && n <= 1,
      "a number between 0 and 1",
    ),
    faultSeed: numberFlag("--fault-seed", str("fault-seed"), Number.isInteger, "an integer"),
    ...rateFlags(str("rate-limit"), str("rate-burst")),
    ...(values["remote-control"] === true ? { remoteControl: true } : {}),
  };
}

/** `--rate-limit 5` or `5/s`, and `--rate-burst`, which means nothing without a rate. */
function rateFlags(rate: string | undefined, burst: string | undefined): EmulatorOptions {
  let perSecond: number | undefined;
  if (rate !== undefined) {
    perSecond = Number(rate.trim().replace(/\/s$/, ""));
    if (!(rate.trim() !== "" && perSecond > 0 && perSecond <= 1e6)) {
      const what = "a number of requests per second > 0, as R or R/s";
      throw new UsageError(`--rate-limit must be ${what} (got ${JSON.stringify(rate)})`);
    }
  }
  const rateBurst = numberFlag(
    "--rate-burst",
    burst,
    (n) => Number.isInteger(n) && n >= 1 && n <= 1e6,
    "an integer >= 1",
  );
  if (rateBurst !== undefined && perSecond === undefined)
    throw new UsageError("--rate-burst needs --rate-limit (a burst without a rate limits nothing)");
  return { rateLimit: perSecond, rateBurst };
}

/**
 * `--time-scale -1` reads to node's parseArgs as a flag `-1` ("argument is ambiguous"): a value
 * that looks like a negative number is joined to its flag (`--time-scale=-1`), so the flag's own
 * check refuses it with the allowed range, or takes it where negatives are allowed.
 */
function joinNegativeValues(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const next = argv[i + 1];
    const takesValue = flag.startsWith("--") && VALUE_FLAGS.includes(flag.slice(2));
    if (takesValue && next !== undefined && /^-(\d|\.\d|Infinity$)/.test(next)) {
      out.push(`${flag}=${next}`);
      i++;
    } else out.push(flag);
  }
  return out;
}

function numberFlag(
  flag: string,
  raw: string | undefined,
  ok: (n: number) => boolean,
  what: string,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || !ok(n))
    throw new UsageError(`${flag} must be ${what} (got ${JSON.stringify(raw)})`);
  return n;
}

function clockFlag(raw: string | undefined): "real" | "manual" | undefined {
  if (raw === undefined || raw === "real" || raw === "manual") return raw;
  throw new UsageError(`--clock must be real or manual (got ${JSON.stringify(raw)})`);
}

function readSeed(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--seed ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--seed ${file}: not valid JSON (${jsonSyntaxReason(error)})`);
  }
  try {
    return parseSeed(json);
  } catch (error) {
    throw new UsageError(`--seed ${file}: ${(error as Error).message}`);
  }
}

/** A startup failure the user fixes by changing a flag or the file it names, as a UsageError. */
export function asUsageError(error: unknown): UsageError | undefined {
  if (error instanceof UsageError) return error;
  if (error instanceof StateFileError) return new UsageError(`--state-file ${error.file}: ${error.reason}`);
  return undefined;
}

/** The ready line, formatted exactly as documented. */
export function readyLine(emulator: Pick<RunningEmulator, "url" | "console" | "keys">): string {
  const k = emulator.keys;
  const q = JSON.stringify;
  return `{"url": ${q(emulator.url)}, "console": ${q(emulator.console)}, "keys": {"individual": ${q(k.individual)}, "teamAdmin": ${q(k.teamAdmin)}, "teamMember": ${q(k.teamMember)}}}`;
}

async function main(argv: string[]): Promise<void> {
  let options: EmulatorOptions | "help";
  let emulator: RunningEmulator;
  try {
    options = parseFlags(argv);
    if (options === "help") {
      process.stdout.write(HELP);
      return;
    }
    emulator = await startEmulator({ ...options, log: (line) => process.stderr.write(`${line}\n`) });
  } catch (error) {
    const usage = asUsageError(error);
    process.stderr.write(`vmapi-emulator: ${(usage ?? (error as Error)).message}\n`);
    // Flag, seed and state-file problems are usage errors (2); anything else, e.g. a port in use, is 1.
    process.exit(usage !== undefined ? 2 : 1);
  }
  const stop = (signal: string) => {
    process.stderr.write(`vmapi-emulator: ${signal}, stopping\n`);
    emulator.close().then(
      () => process.exit(0),
      (error: Error) => {
        process.stderr.write(`vmapi-emulator: ${error.message}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  if (options.remoteControl === true)
    process.stderr.write(
      "vmapi-emulator: --remote-control: the console and the control endpoints answer anyone who can reach this address, with no key: every account's machines, users' emails and script texts; reset, stop, faults, clock\n",
    );
  // Only after the handlers are in place: a caller may signal as soon as it reads the line.
  process.stdout.write(`${readyLine(emulator)}\n`);
}

if (require.main === module) void main(process.argv.slice(2));
