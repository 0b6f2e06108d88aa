/**
 * Data sources run in the Pulumi program's own process (not the plugin): they read the same
 * stack config, `vmapi:apiKey` and `vmapi:baseUrl`, else the client's environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { VmApiClient, type VmApiClientOptions } from "../../client/client";
import { PROVIDER_MAX_RETRIES } from "../settings";

/** Connection settings a data source may override (e.g. another account's key). */
export interface DataSourceOptions {
  apiKey?: string;
  baseUrl?: string;
}

/** A client for one data-source call. */
export function programClient(options: DataSourceOptions = {}): VmApiClient {
  const settings: VmApiClientOptions = { maxRetries: PROVIDER_MAX_RETRIES };
  const apiKey = options.apiKey ?? readConfig("vmapi:apiKey");
  const baseUrl = options.baseUrl ?? readConfig("vmapi:baseUrl");
  if (apiKey) settings.apiKey = apiKey;
  if (baseUrl) settings.baseUrl = baseUrl;
  return new VmApiClient(settings);
}

function readConfig(key: string): string | undefined {
  try {
    // The raw value, also for secrets, without the SDK's "read a secret as plain" warning.
    return pulumi.runtime.getConfig(key);
  } catch {
    return undefined;
  }
}

/** Lifts a promise-returning function over Inputs: the `...Output` twin of a data source. */
export function outputTwin<A, R>(fn: (args: A, options?: DataSourceOptions) => Promise<R>) {
  return (args: pulumi.Input<A> | pulumi.Inputs, options?: DataSourceOptions): pulumi.Output<R> =>
    pulumi.output(args as pulumi.Input<A>).apply((plain) => fn(plain as A, options)) as pulumi.Output<R>;
}

/**
 * A data source's failure, as a program should show it: one line naming the function
 * (`getUsers: invalid API key (401 ...)`). A `pulumi.RunError`, which the SDK prints without a
 * stack; `cause` keeps the client's error (it holds no key) for callers that match on its class.
 */
export class DataSourceError extends pulumi.RunError {
  readonly function: string;
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
