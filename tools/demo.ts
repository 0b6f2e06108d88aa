/**
 * `npm run demo`: the quickstart (examples/quickstart, the root Pulumi.yaml's program) brought up
 * by the real `pulumi` CLI against a local emulator started in the background (its web console's
 * address printed first, to watch the `up` in a browser), then the stack's outputs and the
 * machines as the emulator sees them, then what to type next.
 *
 * `npm run emulator:start` / `npm run emulator:stop` start and stop that emulator alone.
 */
import * as path from "path";
import { ensureFreshBuild } from "./freshBuild";
import { ensureEmulator, EMULATOR_TIME_SCALE, stopEmulator } from "./localEmulator";
import { runPulumi } from "./pulumi/main";

const REPO = path.resolve(__dirname, "..");
/** The demo's stack; VMAPI_DEMO_STACK lets the tests use their own (its config file is Pulumi.<stack>.yaml). */
const STACK = process.env.VMAPI_DEMO_STACK || "dev";

/** One CLI command line in the repository's root project; fails on a non-zero exit. */
async function pulumi(...args: string[]): Promise<void> {
  const code = await runPulumi(args, REPO);
  if (code !== 0) throw new Error(`\`npm run pulumi -- ${args.join(" ")}\` exited with ${code}`);
}

async function printMachines(url: string, apiKey: string): Promise<void> {
  const response = await fetch(`${url}/machines/getMachines`, { headers: { "X-Api-Key": apiKey } });
  const machines = (await response.json()) as Array<Record<string, unknown>>;
  console.log(`\nMachines at ${url} (${machines.length}):`);
  for (const m of machines) {
    console.log(
      `  ${String(m.id).padEnd(10)} ${String(m.state).padEnd(8)} ${m.machineType} ${m.region} ${m.name}`,
    );
  }
}

/** Where the emulator's web console is: the machines, the requests, the faults, live. */
function consoleLine(url: string): string {
  return `console: ${url}/_console/ (open it in a browser to watch the machines come up)`;
}

async function demo(): Promise<void> {
  const emulator = await ensureEmulator((line) => console.log(line));
  console.log(consoleLine(emulator.url));
  await pulumi("stack", "select", "--create", STACK);
  // The key is stored as a secret (ciphertext in Pulumi.dev.yaml and in state).
  await pulumi(
    "config",
    "set-all",
    "--plaintext",
    `vmapi:baseUrl=${emulator.url}`,
    "--plaintext",
    `vmapi:pollScale=${EMULATOR_TIME_SCALE}`,
    "--secret",
    `vmapi:apiKey=${emulator.keys.individual}`,
  );
  await pulumi("up", "--yes", "--stack", STACK);
  console.log("\nStack outputs:");
  await pulumi("stack", "output", "--stack", STACK);
  await printMachines(emulator.url, emulator.keys.individual);
  console.log(`
Next:
  npm run pulumi -- preview --expect-no-changes   # nothing to do: the stack matches the program
  npm run pulumi -- preview --diff                # after editing examples/quickstart/index.ts
  npm run pulumi -- refresh --yes                 # read every resource back (drift shows here)
  npm run pulumi -- destroy --yes                 # delete everything the stack manages
  npm run emulator:stop                           # stop the background emulator (its state stays)`);
}

async function main(command: string | undefined): Promise<void> {
  ensureFreshBuild();
  const say = (line: string) => console.log(line);
  if (command === "emulator:start") {
    const emulator = await ensureEmulator(say);
    say(`emulator at ${emulator.url}; keys ${JSON.stringify(emulator.keys)}`);
    return say(consoleLine(emulator.url));
  }
  if (command === "emulator:stop") return stopEmulator(say);
  return demo();
}

main(process.argv[2]).catch((err: unknown) => {
  console.error(`error: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
