/**
 * The account of a pending create as the state records it (src/recovery/stackAccounts.ts): the
 * TypeScript route's stack config in its provider's inputs (the default key, or a named account
 * of `vmapi:accounts`), the plugin route's provider resource with its own key; never a key in
 * what is printed.
 */
import { accountOf } from "../../../src/recovery/stackAccounts";
import { holdsShownSecret, plainValue, type ExportedResource } from "../../../src/recovery/stackExport";

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const shown = (value: unknown) => ({ ...SIG, plaintext: JSON.stringify(value) });
const encrypted = { ...SIG, ciphertext: "v1:AAAA" };

const DYNAMIC = "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default";
const dynamicProvider = (inputs: Record<string, unknown>): ExportedResource => ({
  urn: DYNAMIC,
  id: "p1",
  type: "pulumi:providers:pulumi-nodejs",
  inputs,
});
const machine = (provider: string, inputs: Record<string, unknown> = {}): ExportedResource => ({
  urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/vmapi:Machine::m",
  type: "pulumi-nodejs:dynamic/vmapi:Machine",
  provider,
  inputs: { name: "m", ...inputs },
});

const CONFIG = {
  "vmapi:apiKey": shown("key-default"),
  "vmapi:baseUrl": "http://api.example",
  "vmapi:accounts": shown(
    JSON.stringify({ team: { apiKey: "key-team" }, lab: { apiKey: "key-lab", baseUrl: "http://lab" } }),
  ),
};

test("accountOf: a TypeScript resource without account → the stack config's key and base URL", () => {
  expect(accountOf(machine(`${DYNAMIC}::p1`), [dynamicProvider(CONFIG)])).toEqual({
    label: "the default account",
    settings: { apiKey: "key-default", baseUrl: "http://api.example" },
  });
});

test.each([
  ["team", { apiKey: "key-team", baseUrl: "http://api.example" }],
  ["lab", { apiKey: "key-lab", baseUrl: "http://lab" }],
])(
  "accountOf: a TypeScript resource of account %s → that account's key (its base URL, else the config's)",
  (name, settings) => {
    expect(accountOf(machine(`${DYNAMIC}::p1`, { account: name }), [dynamicProvider(CONFIG)])).toEqual({
      label: `account "${name}"`,
      settings,
    });
  },
);

test("accountOf: an account the config does not have → unreadable, naming it and the configured ones", () => {
  expect(accountOf(machine(`${DYNAMIC}::p1`, { account: "gone" }), [dynamicProvider(CONFIG)])).toEqual({
    unreadable: `account "gone" is not in the stack's vmapi:accounts (configured: team, lab)`,
  });
});

test.each([
  ["vmapi:apiKey", {}, "the key of the default account is encrypted"],
  ["vmapi:accounts", { account: "team" }, 'the keys of account "team" are encrypted'],
])(
  "accountOf: %s encrypted (an export without --show-secrets) → unreadable, saying how to show it",
  (key, inputs, why) => {
    const found = accountOf(machine(`${DYNAMIC}::p1`, inputs), [
      dynamicProvider({ ...CONFIG, [key]: encrypted }),
    ]);
    expect(found).toEqual({ unreadable: expect.stringContaining(why) });
    expect(found).toEqual({ unreadable: expect.stringContaining("pulumi stack export --show-secrets") });
  },
);

test("accountOf: the plugin's provider resource with its own key → that key, named after the provider", () => {
  const team = "urn:pulumi:dev::p::pulumi:providers:vmapi::team";
  const provider = {
    urn: team,
    id: "p2",
    type: "pulumi:providers:vmapi",
    inputs: { apiKey: shown("key-team"), baseUrl: "http://t" },
  };
  expect(accountOf(machine(`${team}::p2`), [dynamicProvider(CONFIG), provider])).toEqual({
    label: "provider team",
    settings: { apiKey: "key-team", baseUrl: "http://t" },
  });
});

test("accountOf: the plugin's default provider with no key in its inputs → no key: the environment's applies, as for the provider", () => {
  const urn = "urn:pulumi:dev::p::pulumi:providers:vmapi::default_0_1_0";
  const provider = { urn, id: "p3", type: "pulumi:providers:vmapi", inputs: { version: "0.1.0" } };
  expect(accountOf(machine(`${urn}::p3`), [provider])).toEqual({
    label: "the default provider",
    settings: { apiKey: undefined, baseUrl: undefined },
  });
});

test("accountOf: a provider the export does not hold → unreadable", () => {
  expect(accountOf(machine(`${DYNAMIC}::other`), [dynamicProvider(CONFIG)])).toEqual({
    unreadable: expect.stringContaining("is not in the export"),
  });
});

test("accountOf: whatever it answers, no key in it but the settings to use", () => {
  const answers = ["team", "lab", "gone", undefined].map((account) =>
    accountOf(machine(`${DYNAMIC}::p1`, { account }), [dynamicProvider(CONFIG)]),
  );
  const printable = JSON.stringify(answers.map((a) => ("label" in a ? a.label : a.unreadable)));
  expect(printable).not.toMatch(/key-/);
});

test("plainValue / holdsShownSecret: a shown secret unwrapped, an encrypted one refused; found anywhere inside", () => {
  expect(plainValue(shown({ a: 1 }))).toEqual({ value: { a: 1 } });
  expect(plainValue(encrypted)).toBe("encrypted");
  expect(plainValue("plain")).toEqual({ value: "plain" });
  expect(holdsShownSecret({ deployment: { resources: [{ inputs: { k: shown("x") } }] } })).toBe(true);
  expect(holdsShownSecret({ deployment: { resources: [{ inputs: { k: encrypted } }] } })).toBe(false);
});
