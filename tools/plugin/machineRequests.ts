/**
 * What the plugin's build and its benchmarks ask of Machines alike: the Machine they declare (the
 * one benchmark 4's YAML program declares, bench/pluginProgram.ts, on its own template), one made
 * ready in an emulator, and requests sent a few at a time as the engine sends them. The code
 * cache's training (codeCache.ts) and benchmark 8's counts (bench/resourceInstructions.ts) use them.
 */
import { VmApiClient } from "../../src/client";

/** A Machine as the programs declare it (benchmark 4's with a template of its own). */
export const DECLARED_MACHINE = {
  region: "East Coast (NY2)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
} as const;

/** Makes a machine of DECLARED_MACHINE named `name` on the API at `baseUrl` and waits until it is ready; its id. */
export async function readyMachine(apiKey: string, baseUrl: string, name: string): Promise<string> {
  const api = new VmApiClient({ apiKey, baseUrl });
  const made = await api.machines.create({ ...DECLARED_MACHINE, machineName: name });
  await api.machines.waitFor(made.id, "ready", { pollPolicy: { initialDelayMs: 5, maxDelayMs: 20 } });
  return made.id;
}

/** `ask(0)` … `ask(total - 1)`, at most `width` at a time (the engine keeps 8 steps in flight here). */
export async function inFlight(
  total: number,
  width: number,
  ask: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < total; i = next++) await ask(i);
  };
  await Promise.all(Array.from({ length: width }, worker));
}
