/**
 * What the wrapper reads from a `pulumi` command line, leaving everything else to the CLI
 * (which refuses unknown flags itself): the program's folder, and which command runs.
 */
import * as path from "path";

/** Commands whose engine run needs the program's language host (the CLI's `--client` flag). */
const PROGRAM_COMMANDS = new Set(["up", "update", "preview", "pre", "refresh", "destroy", "down", "dn"]);

/** Root flags of the CLI that take a value in the next argument (`--color never`). */
const ROOT_FLAGS_WITH_VALUE = new Set([
  "--color",
  "--tracing",
  "--tracing-header",
  "--otel-traces",
  "--profiling",
  "--memprofilerate",
  "--verbose",
  "-v",
]);

/** A command line split into what the wrapper acts on and what goes to the CLI unchanged. */
export interface PulumiInvocation {
  /** The folder holding the program's Pulumi.yaml: `--program DIR`, `--cwd DIR`/`-C DIR`, or `from`. */
  programDir: string;
  /** The CLI's arguments, without `--program`/`--cwd` (the CLI runs in `programDir`). */
  cliArgs: string[];
  /** Index in `cliArgs` of a command that runs the program (up, preview, ...), or -1. */
  programCommandAt: number;
}

/**
 * Splits `argv` (what follows `npm run pulumi --`). `from` is the folder the user typed the
 * command in. `--program` and `--cwd` both name the program's folder; the CLI is started there.
 */
export function parseInvocation(argv: readonly string[], from: string): PulumiInvocation {
  const cliArgs: string[] = [];
  let programDir = from;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = splitFlag(arg);
    if (flag === "--program" || flag === "--cwd" || flag === "-C") {
      const value = inline ?? argv[++i];
      if (value === undefined || value === "") throw new Error(`${flag} needs a folder`);
      programDir = path.resolve(from, value);
      continue;
    }
    cliArgs.push(arg);
  }
  return { programDir, cliArgs, programCommandAt: programCommandIndex(cliArgs) };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf("=");
  return arg.startsWith("-") && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
}

/** The first positional argument is the command; root flags may come before it. */
function programCommandIndex(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return -1;
    if (arg.startsWith("-")) {
      if (ROOT_FLAGS_WITH_VALUE.has(arg)) i++;
      continue;
    }
    return PROGRAM_COMMANDS.has(arg) ? i : -1;
  }
  return -1;
}

/** The CLI's arguments with the language host's address after the command. */
export function withClient(invocation: PulumiInvocation, address: string): string[] {
  const args = [...invocation.cliArgs];
  // `auto.inline` is how the Automation API marks this route: the CLI then does not ask a
  // language host for the program's plugins during refresh and destroy.
  args.splice(invocation.programCommandAt + 1, 0, `--client=${address}`, "--exec-kind=auto.inline");
  return args;
}
