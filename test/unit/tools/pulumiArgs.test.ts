/**
 * The wrapper's reading of a `pulumi` command line (tools/pulumi/args.ts): the program's folder,
 * the command that runs the program, and where the language host's address goes.
 */
import * as path from "path";
import { parseInvocation, withClient } from "../../../tools/pulumi/args";

const FROM = "/work/repo";

test.each([
  [["up", "--yes"], 0],
  [["preview", "--diff"], 0],
  [["pre"], 0],
  [["refresh", "--yes"], 0],
  [["destroy", "--yes"], 0],
  [["down"], 0],
  [["--color", "never", "up"], 2],
  [["-v=9", "--logtostderr", "preview"], 2],
  [["--non-interactive", "destroy"], 1],
])("parseInvocation: %j → the program command at %i", (argv, at) => {
  expect(parseInvocation(argv, FROM).programCommandAt).toBe(at);
});

test.each([[["stack", "ls"]], [["config", "set", "up", "1"]], [["version"]], [["--", "up"]], [[]]])(
  "parseInvocation: %j → no program command",
  (argv) => {
    expect(parseInvocation(argv, FROM).programCommandAt).toBe(-1);
  },
);

test.each([
  [["--program", "examples/team", "up"], "examples/team"],
  [["--program=examples/team", "up"], "examples/team"],
  [["-C", "x", "preview"], "x"],
  [["--cwd=/abs/dir", "preview"], "/abs/dir"],
])("parseInvocation: %j → program folder %s, flag removed", (argv, dir) => {
  const invocation = parseInvocation(argv, FROM);
  expect(invocation.programDir).toBe(path.resolve(FROM, dir));
  expect(invocation.cliArgs).toEqual([argv[argv.length - 1]]);
});

test("parseInvocation: no folder flag → the folder typed in; unknown flags passed on for the CLI to refuse", () => {
  const invocation = parseInvocation(["up", "--programm", "x"], FROM);
  expect(invocation.programDir).toBe(FROM);
  expect(invocation.cliArgs).toEqual(["up", "--programm", "x"]);
});

test("parseInvocation: --program without a folder → error naming the flag", () => {
  expect(() => parseInvocation(["up", "--program"], FROM)).toThrow("--program needs a folder");
});

test("withClient: the address and exec kind go right after the command, the rest keeps its order", () => {
  const invocation = parseInvocation(["--color", "never", "up", "--yes", "--stack", "dev"], FROM);
  expect(withClient(invocation, "127.0.0.1:5000")).toEqual([
    "--color",
    "never",
    "up",
    "--client=127.0.0.1:5000",
    "--exec-kind=auto.inline",
    "--yes",
    "--stack",
    "dev",
  ]);
});
