/**
 * What benchmark 4 runs on: the trivial dynamic provider it compares with, the resources as the
 * engine holds them after an `up`, and the plugin, started in a program directory where
 * `pulumi-vmapi` is installed as in a user's project.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../src/emulator";
import { machineProvider } from "../src/provider/machineProvider";
import { scriptProvider } from "../src/provider/scriptProvider";
import { providerStub } from "../src/provider/stub";
import {
  REPO_ROOT,
  dynamicInputs,
  reveal,
  secret,
  serializeProviderLikeEngine,
  startProviderPlugin,
  type ProviderPlugin,
  type Props,
} from "../tools/engine/providerHarness";
import { MACHINE_INPUTS, mapLimit, useManualClock } from "./support";

/** A dynamic provider that does nothing: the floor any dynamic provider pays. */
export const trivialProvider: pulumi.dynamic.ResourceProvider = {
  async check(_olds, news) {
    return { inputs: news };
  },
  async diff() {
    return { changes: false };
  },
  async create() {
    return { id: "trivial" };
  },
};

export type Kind = "Machine" | "Script";

/** One resource as the engine holds it after an earlier `up`. */
export interface Held {
  id: string;
  urn: string;
  news: Props;
  inputs: Props;
  outs: Props;
}

/**
 * The trivial provider with a captured string that brings its serialized text to about `bytes`:
 * separates what our `__provider` costs by its size (every RPC carries it up to three times)
 * from what our code costs.
 */
export async function trivialOfSize(bytes: number): Promise<pulumi.dynamic.ResourceProvider> {
  const build = (padding: string): pulumi.dynamic.ResourceProvider => ({
    ...trivialProvider,
    async check(_olds, news) {
      return { inputs: padding.length >= 0 ? news : {} };
    },
  });
  const unpadded = Buffer.byteLength(await serializeProviderLikeEngine(build("")));
  return build("#".repeat(Math.max(0, bytes - unpadded)));
}

/**
 * A program directory where `pulumi-vmapi` is installed (a link to this repository), as in a
 * user's project: the plugin runs there, so the stub finds the runtime by package name, as it
 * does in real use (from the repository root that lookup fails on every call, then falls back).
 */
export function programDirectory(): { cwd: string; remove(): void } {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-bench-program-"));
  fs.mkdirSync(path.join(cwd, "node_modules"));
  fs.symlinkSync(REPO_ROOT, path.join(cwd, "node_modules", "pulumi-vmapi"), "dir");
  fs.symlinkSync(
    path.join(REPO_ROOT, "node_modules", "@pulumi"),
    path.join(cwd, "node_modules", "@pulumi"),
    "dir",
  );
  return { cwd, remove: () => fs.rmSync(cwd, { recursive: true, force: true }) };
}

/** A plugin configured for `emu`, closed after `fn`. The plugin's environment holds no key. */
export async function withPlugin<T>(
  emu: RunningEmulator,
  cwd: string,
  fn: (plugin: ProviderPlugin) => Promise<T>,
): Promise<T> {
  const plugin = await startProviderPlugin({ cwd, env: { VMAPI_API_KEY: "", PAPERSPACE_API_KEY: "" } });
  try {
    await plugin.configure({ "vmapi:apiKey": secret(emu.keys.individual), "vmapi:baseUrl": emu.url });
    return await fn(plugin);
  } finally {
    await plugin.close();
  }
}

/** The same resources, same inputs and outputs, served by the trivial provider. */
export function asTrivial(held: Held[], trivialText: string): Held[] {
  const swap = (p: Props): Props => ({ ...p, __provider: trivialText });
  return held.map((r) => ({ ...r, news: swap(r.news), inputs: swap(r.inputs), outs: swap(r.outs) }));
}

/** `count` resources of `kind` as after an `up`: checked through the plugin, created in-process. */
export async function hold(
  plugin: ProviderPlugin,
  emu: RunningEmulator,
  kind: Kind,
  count: number,
): Promise<Held[]> {
  const provider = providerStub(kind);
  const settings = { apiKey: emu.keys.individual, baseUrl: emu.url };
  const clock = useManualClock(emu);
  try {
    return await mapLimit(Array.from({ length: count }), 20, async (_, i) => {
      const name = `${kind.toLowerCase()}-${i}`;
      const props: Props =
        kind === "Script" ? { name, scriptText: "#!/bin/bash\necho hello\n" } : { name, ...MACHINE_INPUTS };
      const news = await dynamicInputs(provider, props);
      const urn = plugin.urn(name);
      const { inputs } = await plugin.check(urn, {}, news);
      const plain = reveal(inputs) as Record<string, unknown>;
      const created =
        kind === "Machine"
          ? await machineProvider.create(plain, settings)
          : await scriptProvider.create(plain, settings);
      const outs: Props = { ...(created.outs as Props), __provider: news.__provider as string };
      return { id: created.id, urn, news, inputs, outs };
    });
  } finally {
    clock.restore();
  }
}
