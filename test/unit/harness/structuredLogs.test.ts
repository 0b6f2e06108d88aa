/**
 * Opt-in `structuredLogs`: PULUMI_NODEJS_ENGINE points the plugin's SDK at the harness's Engine
 * gRPC sink, so `pulumi.log.*` arrives as Engine.Log calls with a severity. (The real engine does not
 * set this for plugins; see providerHarness.test.ts for the faithful stdout path.)
 */
import * as pulumi from "@pulumi/pulumi";
import {
  dynamicInputs,
  startProviderPlugin,
  type ProviderPlugin,
} from "../../../tools/engine/providerHarness";

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    await pulumi.log.info(`progress: booting ${inputs.name}`);
    await pulumi.log.warn("slow host");
    console.error("plain stderr line");
    return { id: `id-${inputs.name}`, outs: {} };
  },
};

let plugin: ProviderPlugin;
beforeAll(async () => {
  plugin = await startProviderPlugin({ structuredLogs: true });
  await plugin.configure({});
});
afterAll(async () => {
  await plugin?.close();
});

test("pulumi.log.* reaches the Engine.Log sink with its severity", async () => {
  await plugin.create(plugin.urn("s"), await dynamicInputs(provider, { name: "s" }));
  expect(await plugin.waitForLog("progress: booting s")).toBe("info: progress: booting s");
  await plugin.waitForLog("plain stderr line");
  expect(plugin.logEntries).toEqual(
    expect.arrayContaining([
      { source: "engine", severity: "info", message: "progress: booting s", urn: undefined },
      { source: "engine", severity: "warning", message: "slow host", urn: undefined },
      { source: "stderr", message: "plain stderr line" },
    ]),
  );
});
