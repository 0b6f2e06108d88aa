/**
 * The API going away in the middle of an `up`: the emulator is killed (SIGKILL) while a fleet is
 * being created, and restarted on the same port and state file. The `up` fails or recovers, at
 * most one more `up` converges, and nothing the emulator answered is lost: every machine in the
 * stack exists after the restart, and no machine exists twice or outside the stack.
 */
import { spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readyLine } from "../../tools/emulatorReady";
import { PROGRAMS, TIME_SCALE, liveMachines, newStack } from "./e2eKit";
import type { RunningEmulator } from "../../src/emulator";

const CLI = path.resolve(__dirname, "..", "..", "dist", "emulator", "cli.js");
const COUNT = 10;
jest.setTimeout(180_000);

let dir: string;
let child: ChildProcess | undefined;

/** Starts the emulator CLI and resolves with its URL once it printed its ready line. */
function startCli(stateFile: string, port: number): Promise<{ url: string; port: number }> {
  const args = [CLI, "--port", String(port), "--state-file", stateFile, "--time-scale", String(TIME_SCALE)];
  child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  return readyLine(child).then(({ url }) => ({ url, port: Number(new URL(url).port) }));
}

async function machinesCreated(url: string): Promise<number> {
  const dump = (await (await fetch(`${url}/_emulator/state`)).json()) as { machines: unknown[] };
  return dump.machines.length;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-restart-"));
});
afterAll(() => {
  child?.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

test("up: emulator SIGKILLed and restarted mid-up → at most one more up converges; nothing answered is lost", async () => {
  const stateFile = path.join(dir, "state.json");
  const first = await startCli(stateFile, 0);
  const emu = { url: first.url, keys: { individual: "dev-individual-key" } } as RunningEmulator;
  const stack = newStack(emu, path.join(PROGRAMS, "fleet"), emu.keys.individual, { count: String(COUNT) });

  const up = stack.run("up");
  // Kill once some machines exist but not all: the update is in full flight.
  while ((await machinesCreated(first.url)) < 3) await new Promise((r) => setTimeout(r, 20));
  child!.kill("SIGKILL");
  await new Promise((r) => child!.once("exit", r));
  await startCli(stateFile, first.port);

  const results = [await up];
  if (results[0].error !== undefined) results.push(await stack.run("up"));
  expect(results[results.length - 1].error).toBeUndefined();

  const dump = await stack.emulator();
  const inStack = stack.stackState.resources.filter((r) => r.type.endsWith(":Machine")).map((r) => r.id);
  expect(inStack).toHaveLength(COUNT);
  expect(
    liveMachines(dump)
      .map((m) => m.id)
      .sort(),
  ).toEqual([...inStack].sort());
  expect(dump.scripts).toHaveLength(COUNT);

  const destroy = await stack.run("destroy");
  expect(destroy.error).toBeUndefined();
  expect(liveMachines(await stack.emulator())).toEqual([]);
});
