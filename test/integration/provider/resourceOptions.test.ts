/**
 * Resource options and secret inputs in the providers, against the emulator on the kit's manual
 * clock (no real waiting): what the classes pass as internal inputs (resourceOptions.ts) changes
 * the waits, the diffs, the warnings and the failures. The real-engine tests are
 * test/e2e/resourceOptions.test.ts, scriptEdits.test.ts and secrets.test.ts.
 */
import { dispatch } from "../../../src/provider/runtime";
import { providerContext } from "../../../src/provider/account/context";
import {
  checkedMachine,
  MACHINE_BASICS,
  partialFailureOf,
  providersOn,
  useProviderKit,
} from "./providerTestKit";
import { resourceOfThisTest } from "../../kit/machines";

const kit = useProviderKit();

const checkedOpts = (overrides: Record<string, unknown> = {}) => checkedMachine(kit, "opts", overrides);

test("create: customTimeouts.create shorter than the provisioning → partial failure saying that bound ran out", async () => {
  const declared = await checkedOpts({ __customTimeouts: { create: "5s" } });
  const failure = await partialFailureOf(kit.providers.machine.create(declared, kit.settings));
  expect(failure.id).toMatch(/^ps/);
  expect(failure.message).toMatch(
    /^customTimeouts\.create \(5s\) ran out: machine ps\w+ did not become ready/,
  );
});

test("create: waitTimeoutSeconds shorter than customTimeouts.create → the wait's bound, named", async () => {
  const declared = await checkedOpts({ waitTimeoutSeconds: 5, __customTimeouts: { create: "1h" } });
  const failure = await partialFailureOf(kit.providers.machine.create(declared, kit.settings));
  expect(failure.message).toMatch(/^waitTimeoutSeconds \(5\) ran out/);
});

test("diff: replaceOnChanges names a changed in-place input → it replaces; without the option → in place", async () => {
  const olds = {
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    name: "a",
    state: "ready",
    currentState: "ready",
  };
  const news: Record<string, unknown> = {
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    name: "b",
    state: "ready",
  };
  expect(await kit.providers.machine.diff("ps1", olds, news)).toMatchObject({ changes: true, replaces: [] });
  const replacing = await kit.providers.machine.diff("ps1", olds, { ...news, __replaceOnChanges: ["name"] });
  expect(replacing).toMatchObject({ changes: true, replaces: ["name"] });
  const same = await kit.providers.machine.diff("ps1", olds, {
    ...olds,
    __replaceOnChanges: ["name"],
  } as Record<string, unknown>);
  expect(same).toMatchObject({ changes: false, replaces: [] });
});

test("diff: a changed scriptId → replaces, and a warning says the disk is lost and what to write instead", async () => {
  const warnings: string[] = [];
  const machine = providersOn(
    providerContext({ progress: () => undefined, warn: (m) => warnings.push(m) }),
    kit.settings,
  ).machine;
  const olds: Record<string, unknown> = {
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    name: "m-1",
    scriptId: "sc1",
    state: "ready",
  };
  const diff = await machine.diff("ps1", olds, { ...olds, scriptId: "sc2" });
  expect(diff.replaces).toEqual(["scriptId"]);
  expect(warnings).toEqual([
    expect.stringContaining("machine m-1 (ps1) will be REPLACED because its scriptId changes"),
  ]);
  expect(warnings[0]).toMatch(/destroyed with its disk.*machineId: <machine>\.machineId/);
  expect(await machine.diff("ps1", olds, { ...olds, name: "m-2" })).toMatchObject({ replaces: [] });
  expect(warnings).toHaveLength(1);
});

test("check: a secret region that is none → failure without the property or the value, naming the allowed values", async () => {
  const news = {
    ...resourceOfThisTest("opts"),
    ...MACHINE_BASICS,
    templateId: kit.templateId,
    region: "SECRET-region-1",
    __secretInputs: ["region"],
  };
  const { failures } = await kit.providers.machine.check({}, news, kit.settings);
  expect(failures).toEqual([
    {
      property: "",
      reason: "region must be one of: West Coast (CA1), East Coast (NY2), Europe (AMS1) (got a secret value)",
    },
  ]);
});

test("dispatch: an error quoting a secret input (a script name the API refuses as taken) → the value masked", async () => {
  const news = {
    __resourceName: "s",
    name: "SECRET-script-name",
    scriptText: "echo\n",
    __secretInputs: ["name"],
  };
  const settings = { apiKey: kit.keys.individual, baseUrl: kit.url };
  const { inputs } = (await dispatch("Script", "check", [{}, news], settings)) as { inputs: object };
  await dispatch("Script", "create", [inputs], settings);
  const error = (await dispatch("Script", "create", [inputs], settings).catch((e: unknown) => e)) as Error;
  expect(error.message).toMatch(/is taken/);
  expect(error.message).toContain("[secret]");
  expect(`${error.message}${error.stack}`).not.toContain("SECRET-script-name");
});
