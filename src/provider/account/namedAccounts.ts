/**
 * The accounts of one configuration: the default account (`vmapi:apiKey`, `vmapi:baseUrl`) and the
 * named ones. One program may manage resources under several API keys: the keys live only in the
 * stack config, as a secret object (`pulumi config set --secret --path
 * 'vmapi:accounts.team.apiKey' <key>`, optionally `...team.baseUrl`); a resource names the one it
 * belongs to with its `account` input, a name and never a key (the TypeScript door takes it out
 * of the inputs: dynamic/dynamicProvider.ts), and so does a data source's `account` option. The
 * plugin has no named accounts: several accounts are several provider resources.
 *
 * A configuration is read once: `vmapi:accounts` is parsed and checked the first time a name is
 * asked for (a stack that names none never pays for it, nor fails on it), and each account is
 * resolved once (account.ts, `accountOf`), not once per call.
 */
import { ConfigurationError } from "../../client/core/errors";
import type { ProviderContext } from "../shared/context";
import type { ProviderSettings } from "../shared/settings";
import { accountOf, type Account } from "./account";

/** The input (and the data sources' option) that names the account. */
export const ACCOUNT_INPUT = "account";

/** One account of `vmapi:accounts`, as the config holds it. */
interface AccountSettings {
  apiKey?: unknown;
  baseUrl?: unknown;
}

/** The accounts of one configuration (module comment). */
export class Accounts {
  /** `vmapi:accounts` parsed, or why it cannot be: once, at the first name asked for. */
  #named: Record<string, AccountSettings> | ConfigurationError | undefined;
  /** The accounts resolved so far, by name ("" for the default one). */
  readonly #resolved = new Map<string, Account>();

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
    let account = this.#resolved.get(key);
    if (account === undefined) {
      account = accountOf(this.settingsOf(name), this.context);
      this.#resolved.set(key, account);
    }
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
    this.#named ??= parseAccounts(this.settings.accounts);
    if (this.#named instanceof ConfigurationError) throw this.#named;
    return this.#named;
  }
}

/** The `Accounts` of each configuration, per context (a door keeps one settings object per configuration). */
const CONFIGURED = new WeakMap<ProviderContext, WeakMap<ProviderSettings, Accounts>>();

/**
 * The accounts of the configuration `settings` in `context`: one `Accounts` per settings object,
 * so a door that keeps the object its `configure` made parses and checks it once.
 */
export function configuredAccounts(settings: ProviderSettings, context: ProviderContext): Accounts {
  let configurations = CONFIGURED.get(context);
  if (configurations === undefined) CONFIGURED.set(context, (configurations = new WeakMap()));
  let accounts = configurations.get(settings);
  if (accounts === undefined) configurations.set(settings, (accounts = new Accounts(settings, context)));
  return accounts;
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
