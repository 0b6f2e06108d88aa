/**
 * Named accounts: one program manages resources under several API keys. The keys live only in
 * the stack config, as a secret object (`pulumi config set --secret --path
 * 'vmapi:accounts.team.apiKey' <key>`, optionally `...team.baseUrl`); a resource names the one it
 * belongs to with its `account` input, a name and never a key. Without `account`, the default
 * `vmapi:apiKey` applies.
 *
 * The account is the runtime's business, not each resource's: `withAccount` takes `account`
 * out of the arguments, picks the settings of the account the resource lives in (the new inputs
 * for check and create; the stored state for diff, read, update and delete, so a machine is
 * always deleted with the key of the account that owns it), and puts `account` back into what
 * the implementation returns. Moving a resource to another account replaces it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { ConfigurationError } from "../../client/core/errors";
import type { EngineProps } from "../shared/resourceImplementation";
import type { ProviderSettings } from "../shared/settings";

/** The input that names the account. */
export const ACCOUNT_INPUT = "account";

/** One account of `vmapi:accounts`. */
interface AccountSettings {
  apiKey?: unknown;
  baseUrl?: unknown;
}

/**
 * The settings of account `name` (undefined: the default account). Throws a
 * ConfigurationError naming the account and the configured names when it is not configured.
 */
export function settingsFor(settings: ProviderSettings, name: unknown): ProviderSettings {
  if (name === undefined || name === null) return settings;
  const accounts = parseAccounts(settings.accounts);
  const account = typeof name === "string" ? accounts[name] : undefined;
  if (!account || typeof account.apiKey !== "string" || account.apiKey === "") {
    throw new ConfigurationError(unknownAccount(name, Object.keys(accounts)), { code: "invalid_setting" });
  }
  return {
    ...settings,
    apiKey: account.apiKey,
    baseUrl: typeof account.baseUrl === "string" ? account.baseUrl : settings.baseUrl,
  };
}

function unknownAccount(name: unknown, names: string[]): string {
  const known = names.length > 0 ? names.join(", ") : "none";
  return (
    `account ${JSON.stringify(name)} is not configured (configured accounts: ${known}); ` +
    `run \`pulumi config set --secret --path 'vmapi:accounts.<name>.apiKey' <key>\``
  );
}

function parseAccounts(raw: string | undefined): Record<string, AccountSettings> {
  if (raw === undefined || raw === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigurationError("vmapi:accounts must be an object of accounts, each with an apiKey", {
      code: "invalid_setting",
    });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigurationError("vmapi:accounts must be an object of accounts, each with an apiKey", {
      code: "invalid_setting",
    });
  }
  return parsed as Record<string, AccountSettings>;
}

/** `props` without `account`, and the account it named. */
function split(props: unknown): [EngineProps, unknown] {
  if (typeof props !== "object" || props === null) return [props as EngineProps, undefined];
  const { [ACCOUNT_INPUT]: account, ...rest } = props as EngineProps;
  return [rest, account];
}

/** `props` with `account` set again (left out when it was not given). */
function join(props: EngineProps | undefined, account: unknown): EngineProps | undefined {
  if (props === undefined || account === undefined) return props;
  return { ...props, [ACCOUNT_INPUT]: account };
}

/**
 * Runs `body`; a partial failure it throws (a resource that exists, with the `properties` the
 * engine stores) keeps the account too, so the next operation uses the right key.
 */
async function keepingAccount(account: unknown, body: () => Promise<unknown>): Promise<unknown> {
  try {
    return await body();
  } catch (err) {
    const partial = err as { properties?: EngineProps };
    if (account !== undefined && typeof partial?.properties === "object" && partial.properties !== null) {
      Object.assign(partial.properties, { [ACCOUNT_INPUT]: account });
    }
    throw err;
  }
}

/** What the runtime calls instead of the implementation: the account handled around it. */
export type Invoke = (args: unknown[], settings: ProviderSettings) => Promise<unknown>;

/**
 * Runs `method` of one resource with the account taken out of its arguments and the settings
 * of that account; see the module comment.
 */
export async function withAccount(
  method: string,
  args: unknown[],
  settings: ProviderSettings,
  invoke: Invoke,
): Promise<unknown> {
  switch (method) {
    case "check": {
      const [olds, news] = args as [EngineProps, EngineProps];
      const [plainNews, account] = split(news);
      try {
        settingsFor(settings, account);
      } catch (err) {
        if (!(err instanceof ConfigurationError)) throw err;
        return { inputs: news, failures: [{ property: ACCOUNT_INPUT, reason: err.message }] };
      }
      const result = (await invoke(
        [split(olds)[0], plainNews],
        settingsFor(settings, account),
      )) as pulumi.dynamic.CheckResult;
      return { ...result, inputs: join(result.inputs, account) };
    }
    case "diff": {
      const [id, olds, news] = args as [string, EngineProps, EngineProps];
      const [plainOlds, oldAccount] = split(olds);
      const [plainNews, newAccount] = split(news);
      const result = (await invoke(
        [id, plainOlds, plainNews],
        settingsFor(settings, oldAccount),
      )) as pulumi.dynamic.DiffResult;
      if (oldAccount === newAccount) return result;
      // Another account owns another resource: a replace, the old one deleted with its own key.
      return { ...result, changes: true, replaces: [...(result.replaces ?? []), ACCOUNT_INPUT] };
    }
    case "create": {
      const [inputs, account] = split(args[0]);
      const result = (await keepingAccount(account, () =>
        invoke([inputs], settingsFor(settings, account)),
      )) as pulumi.dynamic.CreateResult;
      return { ...result, outs: join(result.outs, account) };
    }
    case "read": {
      const [id, props] = args as [string, EngineProps];
      const [plainProps, account] = split(props);
      const result = (await invoke(
        [id, plainProps],
        settingsFor(settings, account),
      )) as pulumi.dynamic.ReadResult;
      if (result.id === undefined) return result;
      return { ...result, props: join(result.props, account), inputs: join(result.inputs, account) };
    }
    case "update": {
      const [id, olds, news] = args as [string, EngineProps, EngineProps];
      const [plainOlds, account] = split(olds);
      const result = (await keepingAccount(account, () =>
        invoke([id, plainOlds, split(news)[0]], settingsFor(settings, account)),
      )) as pulumi.dynamic.UpdateResult;
      return { ...result, outs: join(result.outs, account) };
    }
    case "delete": {
      const [id, props] = args as [string, EngineProps];
      const [plainProps, account] = split(props);
      return invoke([id, plainProps], settingsFor(settings, account));
    }
    default:
      return invoke(args, settings);
  }
}
