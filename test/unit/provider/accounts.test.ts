/**
 * The accounts of one configuration (src/provider/account/accounts.ts): the default one and
 * the named ones of `vmapi:accounts`, each resolved once per configuration (a settings object in
 * a context) and shared by every configuration of the same account, `vmapi:accounts` parsed once,
 * and never a key in what they say. Which account each operation of a resource
 * uses is the TypeScript door's (test/unit/provider/dynamicProvider.test.ts). Nothing is sent.
 */
import { ConfigurationError } from "../../../src/client/core/errors";
import { accountDigest } from "../../../src/provider/account/account";
import { accountOf, Accounts } from "../../../src/provider/account/accounts";
import { providerContext } from "../../../src/provider/account/context";
import type { ProviderSettings } from "../../../src/provider/account/settings";

const ACCOUNTS = JSON.stringify({
  team: { apiKey: "team-key" },
  eu: { apiKey: "eu-key", baseUrl: "http://eu.example" },
});
const settings: ProviderSettings = {
  apiKey: "default-key",
  baseUrl: "http://api.example",
  accounts: ACCOUNTS,
};

/** `settings` whose every read is counted, by setting. */
function counted(values: ProviderSettings): { settings: ProviderSettings; reads: Record<string, number> } {
  const reads: Record<string, number> = {};
  const watched = {} as ProviderSettings;
  for (const [name, value] of Object.entries(values))
    Object.defineProperty(watched, name, {
      enumerable: true,
      get: () => {
        reads[name] = (reads[name] ?? 0) + 1;
        return value;
      },
    });
  return { settings: watched, reads };
}

describe("Accounts", () => {
  it("of: no name → the default account; a name → its key and base URL (or the default's)", () => {
    const accounts = new Accounts(settings, providerContext());
    expect(accounts.of(undefined).key).toBe(accountDigest("http://api.example", "default-key"));
    expect(accounts.of(null).key).toBe(accountDigest("http://api.example", "default-key"));
    expect(accounts.of("team").key).toBe(accountDigest("http://api.example", "team-key"));
    expect(accounts.of("eu").key).toBe(accountDigest("http://eu.example", "eu-key"));
  });

  it("of: 1,000 calls → one Account per name; the settings and vmapi:accounts read at the first call of each, never again", () => {
    const { settings: watched, reads } = counted({ ...settings, pollScale: "0.5" });
    const accounts = new Accounts(watched, providerContext());
    const first = { default: accounts.of(undefined), team: accounts.of("team") };
    const afterFirst = { ...reads };
    expect(afterFirst.accounts).toBeGreaterThan(0);
    for (let i = 0; i < 1000; i++) {
      expect(accounts.of(undefined)).toBe(first.default);
      expect(accounts.of("team")).toBe(first.team);
    }
    expect(first.team).not.toBe(first.default);
    expect(reads).toEqual(afterFirst);
  });

  it("of: an account not configured → a ConfigurationError naming it and the configured names, never a key", () => {
    const accounts = new Accounts(settings, providerContext());
    const error = (() => {
      try {
        accounts.of("personal");
      } catch (err) {
        return err;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      /^account "personal" is not configured \(configured accounts: team, eu\); run `pulumi config set --secret --path 'vmapi:accounts.<name>.apiKey' <key>`$/,
    );
    expect(accounts.refusal("personal")).toBe((error as Error).message);
    expect(accounts.refusal("team")).toBeUndefined();
    expect(`${(error as Error).message}`).not.toMatch(/team-key|eu-key|default-key/);
  });

  it("vmapi:accounts not an object → a configuration error naming it, when a name is asked for; the default account unaffected", () => {
    const accounts = new Accounts({ ...settings, accounts: "[1]" }, providerContext());
    expect(accounts.of(undefined).key).toBe(accountDigest("http://api.example", "default-key"));
    expect(() => accounts.of("team")).toThrow(
      /^vmapi:accounts must be an object of accounts, each with an apiKey$/,
    );
    expect(accounts.refusal("team")).toMatch(/^vmapi:accounts must be an object/);
  });

  it("of: a bad setting → the ConfigurationError naming it, before any request", () => {
    const accounts = new Accounts({ ...settings, pollScale: "2" }, providerContext());
    expect(() => accounts.of(undefined)).toThrow(/vmapi:pollScale must be/);
  });

  it("of: the same settings object in a context → one configuration, however many Accounts are made of it: its settings read at the first call of each name, never again", () => {
    const { settings: watched, reads } = counted(settings);
    const context = providerContext();
    const first = new Accounts(watched, context).of("team");
    const afterFirst = { ...reads };
    const again = new Accounts(watched, context);
    expect(again.of("team")).toBe(first);
    expect(reads).toEqual(afterFirst);
  });

  it("of: another settings object of the same account → the same Account (its client, budget, watcher); another context → another", () => {
    const context = providerContext();
    const team = new Accounts(settings, context).of("team");
    expect(new Accounts({ ...settings }, context).of("team")).toBe(team);
    expect(accountOf({ ...settings, apiKey: "team-key" }, context)).toBe(team);
    expect(new Accounts(settings, providerContext()).of("team")).not.toBe(team);
  });
});
