/**
 * Shared set-up for provider tests: an in-process emulator on a manual clock, and provider
 * settings plus client hooks so every wait the provider does advances that clock instead of
 * sleeping.
 */
import { createServer, type AddressInfo } from "node:net";
import { startTestEmulator } from "../../helpers/emulator";
import { providerClientHooks, type ProviderSettings } from "../../../src/provider/settings";
import { machineProviderDeps } from "../../../src/provider/machineProvider";

export interface ProviderKit {
  url: string;
  settings: ProviderSettings;
  keys: { individual: string; teamAdmin: string; teamMember: string };
  progress: string[];
  /** The simulated clock the provider's clients sleep on. */
  now(): number;
  advance(ms: number): void;
  close(): Promise<void>;
}

/** Starts an emulator and points the provider's clients at it with a simulated clock. */
export async function startProviderKit(): Promise<ProviderKit> {
  const emu = await startTestEmulator({ clock: "manual" });
  let simulatedNow = Date.parse("2026-11-22T12:00:00.000Z");
  const progress: string[] = [];
  providerClientHooks.options = {
    sleep: async (ms: number) => {
      simulatedNow += ms;
      emu.advance(ms);
    },
    now: () => simulatedNow,
    random: () => 0.5,
  };
  machineProviderDeps.progress = (line) => progress.push(line);
  return {
    url: emu.url,
    keys: emu.keys,
    settings: { apiKey: emu.keys.individual, baseUrl: emu.url },
    progress,
    now: () => simulatedNow,
    advance: (ms) => emu.advance(ms),
    close: async () => {
      providerClientHooks.options = {};
      await emu.close();
    },
  };
}

/** GET /_emulator/state, typed loosely. */
export async function emulatorState(url: string): Promise<{
  machines: Array<{ id: string; name: string; state: string; dtDestroyed?: string | null }>;
  scripts: Array<{ id: string; name: string }>;
  requestCounts: Record<string, number>;
}> {
  const res = await fetch(`${url}/_emulator/state`);
  return (await res.json()) as never;
}

/** A base URL where nothing listens (a port that was free a moment ago): connections are refused. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
