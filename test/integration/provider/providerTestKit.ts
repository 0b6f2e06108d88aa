/**
 * Shared set-up for provider tests: an in-process emulator on a manual clock, and the five served
 * implementations through the TypeScript door on a context of their own whose clients sleep by
 * advancing that clock, so no wait of the provider takes real time. Each kit has its own lookup
 * cache.
 */
import { createServer, type AddressInfo } from "node:net";
import { startTestEmulator, type EmulatorControl } from "../../kit/emulator";
import { VirtualClock } from "../../kit/timing";
import type { ProviderSettings } from "../../../src/provider/account/settings";
import { providerContext, type ProviderContext } from "../../../src/provider/account/context";
import { machineProvider } from "../../../src/provider/machine/machineProvider";
import { scriptProvider } from "../../../src/provider/script/scriptProvider";
import { resourceDelegationProvider } from "../../../src/provider/delegation/resourceDelegationProvider";
import { machineAccessProvider } from "../../../src/provider/access/machineAccessProvider";
import { machineRestartProvider } from "../../../src/provider/restart/machineRestartProvider";
import { machineResource } from "../../../src/provider/machine/machineResource";
import { scriptResource } from "../../../src/provider/script/scriptResource";
import { resourceDelegationResource } from "../../../src/provider/delegation/resourceDelegationResource";
import { machineAccessResource } from "../../../src/provider/access/machineAccessResource";
import { machineRestartResource } from "../../../src/provider/restart/machineRestartResource";
import { served } from "../../../src/provider/shared/serving";
import { viaSettings, type ViaSettings } from "../../kit/providers";
import { VmApiClient } from "../../../src/client/client";
import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import { useStarted } from "../../kit/started";

export interface ProviderKit {
  url: string;
  /** The emulator's typed control client (state dump, faults, capacity, clock). */
  control: EmulatorControl;
  settings: ProviderSettings;
  keys: { individual: string; teamAdmin: string; teamMember: string };
  /** The id of the emulator's first Ubuntu template, as the kit's key sees it. */
  templateId: string;
  /** A client of the kit's account of its own, not the providers' (someone else on the same account). */
  client(): VmApiClient;
  /** The providers' progress lines, and their warnings prefixed `warning: `. */
  progress: string[];
  /** What the providers run on: this kit's clock, lookups and progress. */
  context: ProviderContext;
  /** The providers on that context. */
  providers: KitProviders;
  /** The simulated clock the provider's clients sleep on. */
  clock: VirtualClock;
  /** The simulated clock's now. */
  now(): number;
  /** Advances the emulator's clock alone (the providers' `now` stays). */
  advance(ms: number): void;
  close(): Promise<void>;
}

export interface KitProviders {
  machine: ViaSettings<typeof machineProvider>;
  script: ViaSettings<typeof scriptProvider>;
  delegation: ViaSettings<typeof resourceDelegationProvider>;
  access: ViaSettings<typeof machineAccessProvider>;
  restart: ViaSettings<typeof machineRestartProvider>;
}

/**
 * The implementations through the TypeScript door on one context, taking the settings last as the
 * door is handed them (`fallback` for a call given none: a diff).
 */
export function providersOn(context: ProviderContext, fallback: ProviderSettings = {}): KitProviders {
  return {
    machine: viaSettings(served(machineResource, machineProvider), context, fallback),
    script: viaSettings(served(scriptResource, scriptProvider), context, fallback),
    delegation: viaSettings(
      served(resourceDelegationResource, resourceDelegationProvider),
      context,
      fallback,
    ),
    access: viaSettings(served(machineAccessResource, machineAccessProvider), context, fallback),
    restart: viaSettings(served(machineRestartResource, machineRestartProvider), context, fallback),
  };
}

/** Starts an emulator and points the provider's clients at it with a simulated clock. */
export async function startProviderKit(): Promise<ProviderKit> {
  const emu = await startTestEmulator({ clock: "manual" });
  const clock = new VirtualClock(emu, Date.parse("2026-11-22T12:00:00.000Z"));
  const progress: string[] = [];
  const context = providerContext({
    timing: clock.timing(),
    progress: (line) => progress.push(line),
    warn: (line) => progress.push(`warning: ${line}`),
  });
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  const client = () => new VmApiClient(settings);
  return {
    url: emu.url,
    control: emu.control,
    keys: emu.keys,
    templateId: await ubuntuTemplateId(client()),
    client,
    settings,
    progress,
    context,
    providers: providersOn(context, settings),
    clock,
    now: clock.now,
    advance: (ms) => emu.advance(ms),
    close: () => emu.close(),
  };
}

/** A base URL where nothing listens (a port that was free a moment ago): connections are refused. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

import { MACHINE_BASICS, resourceOfThisTest } from "../../kit/machines";

export { MACHINE_BASICS };

/** The id of the emulator's first Ubuntu template, as `client`'s key sees it. */
async function ubuntuTemplateId(client: VmApiClient): Promise<string> {
  return (await client.templates.list()).find((t) => t.os.startsWith("Ubuntu"))!.id;
}

/**
 * The inputs `check` makes for Machine `name` of this test (named as `resourceOfThisTest` names
 * it): the basics on the kit's Ubuntu template, `extra` declared too; the test fails on any
 * check failure.
 */
export async function checkedMachine(
  kit: ProviderKit,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const news = { ...resourceOfThisTest(name), ...MACHINE_BASICS, templateId: kit.templateId, ...extra };
  const { inputs, failures } = await kit.providers.machine.check({}, news, kit.settings);
  expect(failures).toEqual([]);
  return inputs!;
}

/** A promise's rejection, which must be a partial failure (the engine keeps the resource). */
export async function partialFailureOf(promise: Promise<unknown>): Promise<ResourceInitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ResourceInitError);
  return error as ResourceInitError;
}

/**
 * The next `up` after a partial failure, as the engine runs it: a diff of the recorded outputs
 * against the declared inputs (an in-place change, never a replace), then the update. Its outputs.
 */
export async function nextUpAfter(
  kit: ProviderKit,
  failure: ResourceInitError,
  declared: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const diff = await kit.providers.machine.diff(failure.id, failure.properties, declared);
  expect(diff).toMatchObject({ changes: true, replaces: [] });
  const { outs } = await kit.providers.machine.update(failure.id, failure.properties, declared, kit.settings);
  return outs as Record<string, unknown>;
}

/** One kit for a test file (or describe block): started before its tests, closed after them. */
export function useProviderKit(): ProviderKit {
  return useStarted(startProviderKit);
}

/**
 * One kit for a test file and a machine of its own (`machineId`: a C3 on the Ubuntu template)
 * that scripts, delegations and grants aim at.
 */
export function useProviderKitWithMachine(): ProviderKit & { machineId: string } {
  return useStarted(async () => {
    const kit = await startProviderKit();
    const machine = await kit.client().machines.create({
      ...MACHINE_BASICS,
      machineType: "C3",
      machineName: "script-host",
      templateId: kit.templateId,
    });
    return { ...kit, machineId: machine.id };
  });
}

/** The routes whose requests the provider tests count, by what they do. */
export const ROUTES = {
  listMachines: "GET /machines/getMachines",
  showMachine: "GET /machines/getMachinePublic",
  createMachine: "POST /machines/createSingleMachinePublic",
  updateMachine: "POST /machines/{machineId}/updateMachinePublic",
  createScript: "POST /scripts/createScript",
  destroyScript: "POST /scripts/{scriptId}/destroy",
  listScripts: "GET /scripts/getScripts",
  showScript: "GET /scripts/getScript",
} as const;

/** The requests `kit`'s emulator has served so far, per route ("GET /machines/getMachines"). */
export async function requestCounts(kit: ProviderKit): Promise<Record<string, number>> {
  return (await kit.control.state()).requestCounts;
}

/** The requests of each of {@link ROUTES} served since `before` (a {@link requestCounts}). */
export async function requestsSince(
  kit: ProviderKit,
  before: Record<string, number>,
): Promise<Record<keyof typeof ROUTES, number>> {
  const after = await requestCounts(kit);
  const entries = Object.entries(ROUTES).map(([what, route]) => [
    what,
    (after[route] ?? 0) - (before[route] ?? 0),
  ]);
  return Object.fromEntries(entries) as Record<keyof typeof ROUTES, number>;
}
