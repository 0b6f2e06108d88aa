/**
 * Data sources run in the Pulumi program's own process (not the plugin), on an account of the
 * stack's configuration as the resources use it (account/): `vmapi:apiKey`, `vmapi:baseUrl`,
 * `vmapi:pollScale` and the named accounts of `vmapi:accounts`, else the client's environment
 * variables. The configuration is read once per program, each account resolved once (one client
 * and one request budget per account, however many data sources a program calls).
 */
import * as pulumi from "@pulumi/pulumi";
import type { Account } from "../account/account";
import { accountOf, Accounts } from "../account/accounts";
import { providerContext } from "../account/context";
import type { AccountCall } from "../shared/resourceImplementation";
import type { ProviderSettings } from "../account/settings";

/** Connection settings a data source may override (e.g. another account's key). */
export interface DataSourceOptions {
  /** A named account of the secret stack config `vmapi:accounts`, as resources take it. */
  account?: string;
  /** The API key to use instead of `vmapi:apiKey`; keep it out of logs (read it from secret config). */
  apiKey?: string;
  /** The API endpoint to use instead of `vmapi:baseUrl`. */
  baseUrl?: string;
}

/**
 * The second argument of a data source: Pulumi's invoke options plus the connection settings.
 * The data sources call the API from the program itself, not through a provider plugin, so
 * `parent`, `provider`, `version` and `pluginDownloadURL` are accepted and have no effect.
 */
export interface VmApiInvokeOptions extends pulumi.InvokeOptions, DataSourceOptions {}

/**
 * The second argument of an `...Output` data source: as {@link VmApiInvokeOptions}, and
 * `dependsOn`: the call waits until those resources are registered.
 */
export interface VmApiInvokeOutputOptions extends pulumi.InvokeOutputOptions, DataSourceOptions {}

/** The `...OutputArgs` of a data source: each argument may be an Output. */
export type OutputArgs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/**
 * The call of one data source with `options`: on the account `options.account` names in
 * `accounts` (by default the stack config's), or on that account with the `apiKey` or `baseUrl`
 * `options` give instead; its lines to the program's log.
 */
export function programCall(options: DataSourceOptions = {}, accounts = stackAccounts()): AccountCall {
  const { context } = accounts;
  return { account: programAccount(options, accounts), progress: context.progress, warn: context.warn };
}

function programAccount(options: DataSourceOptions, accounts: Accounts): Account {
  if (options.apiKey === undefined && options.baseUrl === undefined) return accounts.of(options.account);
  const settings = accounts.settingsOf(options.account);
  const given = { apiKey: options.apiKey ?? settings.apiKey, baseUrl: options.baseUrl ?? settings.baseUrl };
  return accountOf({ ...settings, ...given }, accounts.context);
}

/** The accounts of the stack config, read at the first data source a program calls. */
let stack: Accounts | undefined;
function stackAccounts(): Accounts {
  stack ??= new Accounts(stackSettings(), providerContext());
  return stack;
}

/** The provider settings of the stack config, as the resources' `configure` reads them. */
function stackSettings(): ProviderSettings {
  return {
    apiKey: readConfig("vmapi:apiKey"),
    baseUrl: readConfig("vmapi:baseUrl"),
    pollScale: readConfig("vmapi:pollScale"),
    accounts: readConfig("vmapi:accounts"),
  };
}

function readConfig(key: string): string | undefined {
  try {
    // The raw value, also for secrets, without the SDK's "read a secret as plain" warning.
    return pulumi.runtime.getConfig(key);
  } catch {
    return undefined;
  }
}

/**
 * The `...Output` twin of a data source: waits for the arguments and for `dependsOn`, then
 * calls `fn` with plain values.
 */
export function outputTwin<A, R>(
  fn: (args: A, options?: VmApiInvokeOptions) => Promise<R>,
  args: OutputArgs<A> | undefined,
  options: VmApiInvokeOutputOptions | undefined,
): pulumi.Output<R> {
  const { dependsOn, ...rest } = options ?? {};
  const ready = pulumi.output(dependsOn ?? []).apply((deps) => {
    const resources = (Array.isArray(deps) ? deps : [deps]) as pulumi.Resource[];
    return pulumi.all(resources.map((r) => r.urn));
  });
  return pulumi
    .all([pulumi.output(args ?? {}), ready])
    .apply(([plain]) => fn(plain as A, rest)) as pulumi.Output<R>;
}

/**
 * A data source's failure, as a program should show it: one line naming the function
 * (`getUsers: invalid API key (401 ...)`). A `pulumi.RunError`, which the SDK prints without a
 * stack; `cause` keeps the client's error (it holds no key) for callers that match on its class.
 */
export class DataSourceError extends pulumi.RunError {
  /** The data source that failed, e.g. `getUsers`. */
  readonly function: string;
  /** The client's error. */
  override readonly cause: unknown;

  constructor(fn: string, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super(`${fn}: ${message.replace(/\s*\n\s*/g, " ")}`);
    this.name = "DataSourceError";
    this.function = fn;
    this.cause = cause;
  }
}

/** Runs the body of data source `fn`, turning any failure into a `DataSourceError`. */
export async function dataSource<T>(fn: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw new DataSourceError(fn, err);
  }
}
