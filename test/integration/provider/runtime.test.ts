/**
 * The runtime's provider object, as the provider module in state hands it to the plugin
 * (providerModule.ts): `configure` with the stack's config, then the engine's calls.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resourceProvider } from "../../../src/provider/runtime";
import { useTestEmulator } from "../../kit/emulator";

const emu = useTestEmulator();

/** `provider` configured as the plugin configures it, from these `vmapi:` config values. */
async function configured(provider: pulumi.dynamic.ResourceProvider, config: Record<string, string>) {
  await provider.configure!({
    config: { get: (key: string) => config[key] },
  } as pulumi.dynamic.ConfigureRequest);
  return provider;
}

test("resourceProvider: configured with the stack's key and URL → check and create reach that account", async () => {
  const provider = await configured(resourceProvider("Script"), {
    "vmapi:apiKey": emu.keys.individual,
    "vmapi:baseUrl": emu.url,
  });
  const checked = await provider.check!(
    {},
    { __resourceName: "s", name: "runtime-script", scriptText: "echo\n" },
  );
  expect(checked.failures ?? []).toEqual([]);
  const created = await provider.create!(checked.inputs);
  const scripts = (await emu.control.state()).scripts;
  expect(scripts.map((s) => s.id)).toContain(created.id);
});

test("resourceProvider: each call of the plugin gets its own object, configured alone", async () => {
  const a = await configured(resourceProvider("Script"), {});
  const b = await configured(resourceProvider("Script"), { "vmapi:apiKey": "k" });
  expect(a).not.toBe(b);
  // Unconfigured `a` has no key: its check fails on the setting, not with `b`'s key.
  await expect(a.create!({ __resourceName: "s", name: "x", scriptText: "echo\n" })).rejects.toThrow(
    /no API key/,
  );
});

test("resourceProvider: an account the config does not hold → a check failure naming it, before any request", async () => {
  const provider = await configured(resourceProvider("Machine"), {
    "vmapi:apiKey": emu.keys.individual,
    "vmapi:baseUrl": emu.url,
  });
  const before = (await emu.control.state()).requestCounts;
  const result = await provider.check!({}, { account: "team" });
  expect(result.failures).toEqual([expect.objectContaining({ property: "account" })]);
  expect((await emu.control.state()).requestCounts).toEqual(before);
});
