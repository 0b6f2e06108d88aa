/**
 * Settings are checked before the first request of every operation: a bad `vmapi:pollScale` or
 * `vmapi:baseUrl` refuses the operation with nothing sent, so nothing is created half-way.
 */
import type { ProviderSettings } from "../../../src/provider/account/settings";
import { accountOf } from "../../../src/provider/account/accounts";
import { providerContext } from "../../../src/provider/account/context";
import { useProviderKit } from "./providerTestKit";
import { MACHINE_BASICS } from "../../kit/machines";

type Props = Record<string, unknown>;
const kit = useProviderKit();
let machine: Props;
let machineId: string;

beforeAll(async () => {
  const { inputs } = await kit.providers.machine.check(
    {},
    {
      __resourceName: "cfg",
      ...MACHINE_BASICS,
      templateId: kit.templateId,
    },
    kit.settings,
  );
  machine = inputs!;
  machineId = (await kit.providers.machine.create(machine, kit.settings)).id;
});

async function requestsMadeBy(action: () => Promise<unknown>): Promise<number> {
  const total = async () =>
    Object.values((await kit.control.state()).requestCounts).reduce((a, b) => a + b, 0);
  const before = await total();
  await action().catch(() => undefined);
  return (await total()) - before;
}

const operations: [string, (s: ProviderSettings) => Promise<unknown>][] = [
  ["Machine check", (s) => kit.providers.machine.check({}, { ...machine, name: "other" }, s)],
  ["Machine create", (s) => kit.providers.machine.create(machine, s)],
  ["Machine read", (s) => kit.providers.machine.read(machineId, machine, s)],
  [
    "Machine update",
    (s) => kit.providers.machine.update(machineId, machine, { ...machine, name: "renamed" }, s),
  ],
  ["Machine delete", (s) => kit.providers.machine.delete(machineId, machine, s)],
  ["Script check", (s) => kit.providers.script.check({}, { name: "s", scriptText: "echo" }, s)],
  ["Script create", (s) => kit.providers.script.create({ name: "s", scriptText: "echo" }, s)],
  ["Script delete", (s) => kit.providers.script.delete("sc1", {}, s)],
  ["MachineAccess create", (s) => kit.providers.access.create({ machineId, userId: "u1" }, s)],
  ["ResourceDelegation create", (s) => kit.providers.delegation.create({ machineIds: [machineId] }, s)],
];

describe("settings before any request", () => {
  it.each(operations)(
    "%s: vmapi:pollScale 'fast' → refused naming vmapi:pollScale, nothing sent",
    async (_name, run) => {
      const settings = { ...kit.settings, pollScale: "fast" };
      expect(await requestsMadeBy(() => run(settings))).toBe(0);
      await expect(run(settings)).rejects.toThrow(
        /vmapi:pollScale must be a number in \(0, 1\] \(got "fast"\)/,
      );
    },
  );

  it.each(operations)("%s: vmapi:baseUrl not a URL → refused naming vmapi:baseUrl", async (_name, run) => {
    await expect(run({ ...kit.settings, baseUrl: "emulator:4010" })).rejects.toThrow(/vmapi:baseUrl must/);
  });

  it.each(operations)(
    "%s: VMAPI_TIMEOUT_MS 'soon' → refused naming VMAPI_TIMEOUT_MS, nothing sent",
    async (_name, run) => {
      const saved = process.env.VMAPI_TIMEOUT_MS;
      process.env.VMAPI_TIMEOUT_MS = "soon";
      try {
        // The environment is read when a configuration's account is resolved (once per
        // configuration, as a plugin process's is fixed): a configuration made after the change.
        const settings = { ...kit.settings };
        expect(await requestsMadeBy(() => run(settings))).toBe(0);
        await expect(run(settings)).rejects.toThrow('VMAPI_TIMEOUT_MS must be an integer ≥ 1 (got "soon")');
      } finally {
        if (saved === undefined) delete process.env.VMAPI_TIMEOUT_MS;
        else process.env.VMAPI_TIMEOUT_MS = saved;
      }
    },
  );

  it("accountOf: the time a create is given to take effect follows vmapi:pollScale (10 min × 0.01 = 6 s)", () => {
    const client = accountOf({ ...kit.settings, pollScale: "0.01" }, providerContext()).client;
    expect(client.createTimeoutMs).toBe(6_000);
    expect(accountOf({ ...kit.settings, pollScale: "1" }, providerContext()).client.createTimeoutMs).toBe(
      600_000,
    );
  });

  it("Machine create: no API key anywhere → refused naming vmapi:apiKey, nothing sent", async () => {
    const saved = { ...process.env };
    delete process.env.VMAPI_API_KEY;
    delete process.env.PAPERSPACE_API_KEY;
    try {
      const settings = { baseUrl: kit.url };
      expect(await requestsMadeBy(() => kit.providers.machine.create(machine, settings))).toBe(0);
      await expect(kit.providers.machine.create(machine, settings)).rejects.toThrow(/vmapi:apiKey/);
    } finally {
      process.env = saved;
    }
  });
});
