/**
 * Where every account is resolved, and kept: the one cache that maps a context, a configuration
 * and an account's name to its `Account` (account.ts).
 *
 * A configuration holds the default account (`vmapi:apiKey`, `vmapi:baseUrl`) and the named ones.
 * One program may manage resources under several API keys: the keys live only in the stack config,
 * as a secret object (`pulumi config set --secret --path 'vmapi:accounts.team.apiKey' <key>`,
 * optionally `...team.baseUrl`); a resource names the one it belongs to with its `account` input,
 * a name and never a key (the TypeScript door takes it out of the inputs:
 * dynamic/dynamicProvider.ts), and so does a data source's `account` option. The plugin has no
 * named accounts: several accounts are several provider resources.
 *
 * What is kept lives as long as the context it was resolved in (one plugin process, or a test's
 * context), and no longer:
 * - per configuration, that is per settings object (a door keeps the one its `configure` made):
 *   `vmapi:accounts` parsed and checked the first time a name is asked for (a stack that names
 *   none never pays for it, nor fails on it), and each name's account, so its settings are read
 *   and checked once, not once per call;
 * - per account, by everything its client is built from: one `Account`, which every
 *   configuration of that account shares (two resource kinds of one stack share its client,
 *   budget and watcher; a refresh of 1,000 resources builds one client, not 1,000).
 */
import { ConfigurationError } from "../../client/core/errors";
import { Account, accountDigest } from "./account";
import type { ProviderContext } from "./context";
import { checkSettings, type ProviderSettings } from "./settings";

/** The input (and the data sources' option) that names the account. */
export const ACCOUNT_INPUT = "account";

/** One account of `vmapi:accounts`, as the config holds it. */
interface AccountSettings {
  apiKey?: unknown;
  baseUrl?: unknown;
}

/** What one configuration has resolved in a context. */
interface Configuration {
  /** `vmapi:accounts` parsed, or why it cannot be: once, at the first name asked for. */
  named?: Record<string, AccountSettings> | ConfigurationError;
  /** Its accounts resolved so far, by name ("" for the default one). */
  readonly byName: Map<string, Account>;
}

/** What one context has resolved (module comment). */
interface Resolved {
  /** Each account, by everything its client is built from (the key only as its digest). */
  readonly accounts: Map<string, Account>;
  /** Each configuration's names, by its settings object. */
  readonly configurations: WeakMap<ProviderSettings, Configuration>;
}

/** The one cache of resolved accounts, by context. */
const RESOLVED = new WeakMap<ProviderContext, Resolved>();

function resolvedIn(context: ProviderContext): Resolved {
  let resolved = RESOLVED.get(context);
  if (resolved === undefined) {
    resolved = { accounts: new Map(), configurations: new WeakMap() };
    RESOLVED.set(context, resolved);
  }
  return resolved;
}

/**
 * The account of exactly `settings` in `context`: checked, and then the same object for every
 * configuration with the same settings. Throws a `ConfigurationError` naming the setting; sends
 * nothing. A configuration asks through `Accounts`, once per name.
 */
export function accountOf(settings: ProviderSettings, context: ProviderContext): Account {
  const checked = checkSettings(settings);
  const digest = accountDigest(checked.baseUrl, checked.apiKey);
  // Everything the account's client is built from, the key only as its digest.
  const built = [digest, checked.pollScale, process.env.VMAPI_TIMEOUT_MS].join(" ");
  const { accounts } = resolvedIn(context);
  let account = accounts.get(built);
  if (account === undefined) accounts.set(built, (account = new Account(checked, digest, context)));
  return account;
}

/**
 * The accounts of the configuration `settings` in `context` (module comment). It keeps nothing of
 * its own: two of one settings object and context answer alike, from what the context resolved.
 */
export class Accounts {
  constructor(
    private readonly settings: ProviderSettings,
    /** The process's context every account of the configuration lives in. */
    readonly context: ProviderContext,
  ) {}

  /**
   * The account `name` names (undefined or null: the default one), the same object for every
   * call. Throws a `ConfigurationError` naming the account and the configured names when it is
   * not configured, or naming the setting that is wrong; sends nothing.
   */
  of(name: unknown): Account {
    const key = isDefault(name) ? "" : this.#nameOf(name);
    const { byName } = this.#configuration();
    let account = byName.get(key);
    if (account === undefined) byName.set(key, (account = accountOf(this.settingsOf(name), this.context)));
    return account;
  }

  /**
   * The settings of account `name` (undefined or null: the default account). Throws a
   * ConfigurationError naming the account and the configured names when it is not configured.
   */
  settingsOf(name: unknown): ProviderSettings {
    if (isDefault(name)) return this.settings;
    const named = this.#accounts();
    const account = named[this.#nameOf(name)];
    if (!account || typeof account.apiKey !== "string" || account.apiKey === "") {
      throw new ConfigurationError(unknownAccount(name, Object.keys(named)), { code: "invalid_setting" });
    }
    return {
      ...this.settings,
      apiKey: account.apiKey,
      baseUrl: typeof account.baseUrl === "string" ? account.baseUrl : this.settings.baseUrl,
    };
  }

  /** Why `name` names no configured account (for `check` to say), or undefined when it names one. */
  refusal(name: unknown): string | undefined {
    try {
      this.settingsOf(name);
      return undefined;
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      return err.message;
    }
  }

  #nameOf(name: unknown): string {
    if (typeof name === "string") return name;
    throw new ConfigurationError(unknownAccount(name, Object.keys(this.#accounts())), {
      code: "invalid_setting",
    });
  }

  #accounts(): Record<string, AccountSettings> {
    const configuration = this.#configuration();
    configuration.named ??= parseAccounts(this.settings.accounts);
    if (configuration.named instanceof ConfigurationError) throw configuration.named;
    return configuration.named;
  }

  #configuration(): Configuration {
    const { configurations } = resolvedIn(this.context);
    let configuration = configurations.get(this.settings);
    if (configuration === undefined)
      configurations.set(this.settings, (configuration = { byName: new Map() }));
    return configuration;
  }
}

function isDefault(name: unknown): name is undefined | null {
  return name === undefined || name === null;
}

function unknownAccount(name: unknown, names: string[]): string {
  const known = names.length > 0 ? names.join(", ") : "none";
  return (
    `account ${JSON.stringify(name)} is not configured (configured accounts: ${known}); ` +
    `run \`pulumi config set --secret --path 'vmapi:accounts.<name>.apiKey' <key>\``
  );
}

/** `vmapi:accounts` as an object of accounts, or the error that says it is not one. */
function parseAccounts(raw: string | undefined): Record<string, AccountSettings> | ConfigurationError {
  if (raw === undefined || raw === "") return {};
  const notAnObject = () =>
    new ConfigurationError("vmapi:accounts must be an object of accounts, each with an apiKey", {
      code: "invalid_setting",
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return notAnObject();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return notAnObject();
  return parsed as Record<string, AccountSettings>;
}
