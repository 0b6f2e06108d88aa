/**
 * The one place where requests are sent: axios underneath, every 2xx body parsed with a shared zod
 * schema, every failure mapped to the error hierarchy, retries applied by the pure policy of
 * `retry.ts`, and each attempt, when a `RateLimiter` is given, sent in its turn of the account's
 * budget and its answer reported back to it. Endpoint methods elsewhere are one line each.
 */
import axios, { type AxiosInstance, type AxiosResponse } from "axios";
import type { z } from "zod";
import { API_KEY_HEADER } from "../../contract/constants";
import { AbortedError, ResponseValidationError, VmApiError } from "./errors";
import { notify } from "./notify";
import { errorFromResponse, errorFromTransport, type RequestLabel } from "./errorMapping";
import { formatIssues } from "../../contract/formatIssues";
import type { RateLimiter } from "./rateLimiter";
import {
  retryAfterFromHeaders,
  runWithRetries,
  throwIfAborted,
  type LookupContext,
  type RetryPolicy,
  type Timing,
} from "./retry";
import type { ResolvedSettings } from "./settings";

const MAX_ISSUES_SHOWN = 5;

/** Options every endpoint method accepts. */
export interface RequestOptions {
  /** Aborts the request (and any retry wait) with `AbortedError`. */
  signal?: AbortSignal;
  /**
   * Told each time an attempt leaves for the API: after its turn in the account's rate limiter,
   * so a caller that shares one answer among callers knows until when another may still join.
   */
  onSent?: () => void;
}

/** One request, as endpoint methods describe it. */
export interface RequestSpec<T> extends RequestOptions {
  method: "GET" | "POST";
  /** Path below the base URL; IDs already encoded with `encodeURIComponent`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Schema of the 2xx body; without one the body is ignored (the empty 204s of docs/api.md). */
  schema?: z.ZodType<T>;
  /** Defaults to true for GET and false for POST. */
  idempotent?: boolean;
  /** See `RetryOptions.lookup`. */
  lookup?: (context: LookupContext) => Promise<T | undefined>;
  /** This request's timeout, instead of the client's `timeoutMs` (a create waits longer). */
  timeoutMs?: number;
  /**
   * Told every `waitingEveryMs` while an attempt has no answer yet (with the time waited), so a
   * caller can show that a slow create is being waited for, not sent again.
   */
  onWaiting?: (elapsedMs: number) => void;
  /** How often `onWaiting` is told (real time). */
  waitingEveryMs?: number;
  /** See `RetryOptions.afterAmbiguous`. */
  afterAmbiguous?: (error: VmApiError) => Promise<{ value: T } | undefined>;
}

/** One retry about to happen, as `onRetry` is told of it. */
export interface RetryNotice {
  /** The request's method. */
  method: string;
  /** The request's path, without the query string. */
  path: string;
  /** The failure being retried; it never holds the key. */
  error: VmApiError;
  /** 1 for the first retry. */
  retry: number;
  /** How many retries the policy allows in all. */
  maxRetries: number;
  /** How long the client waits before it (backoff or the server's Retry-After). */
  delayMs: number;
}

/** What `HttpClient` is built from. */
export interface HttpClientOptions {
  settings: ResolvedSettings;
  timing: Timing;
  retryPolicy: RetryPolicy;
  log?: (line: string) => void;
  onRetry?: (notice: RetryNotice) => void;
  /** The account's shared request budget; every attempt waits for its turn in it. */
  rateLimiter?: RateLimiter;
}

/** Sends requests for the resource classes. The key lives only inside the private axios instance. */
export class HttpClient {
  readonly #axios: AxiosInstance;
  readonly #options: Omit<HttpClientOptions, "settings">;
  readonly #baseUrl: string;

  constructor(options: HttpClientOptions) {
    const { settings, ...rest } = options;
    this.#options = rest;
    this.#baseUrl = settings.baseUrl;
    this.#axios = axios.create({
      baseURL: settings.baseUrl,
      timeout: settings.timeoutMs,
      headers: {
        [API_KEY_HEADER]: settings.apiKey,
        Accept: "application/json",
        "User-Agent": "pulumi-vmapi",
      },
      // Statuses are mapped here, not by axios; bodies are parsed here, so an empty 204 is fine.
      validateStatus: () => true,
      responseType: "text",
      transformResponse: [(data: unknown) => data],
      // A redirect to another host would carry X-Api-Key with it: treat 3xx as a failure instead.
      maxRedirects: 0,
    });
  }

  /** GET with query parameters; retried on every retryable failure. */
  get<T>(
    path: string,
    query: Record<string, string>,
    schema: z.ZodType<T>,
    options?: RequestOptions,
  ): Promise<T> {
    return this.request({ method: "GET", path, query, schema, ...options });
  }

  /** POST with an optional JSON body; `spec` says whether it is idempotent and how to recover. */
  post<T>(
    path: string,
    body: unknown,
    spec: Omit<RequestSpec<T>, "method" | "path" | "body"> = {},
  ): Promise<T> {
    return this.request({ method: "POST", path, body, ...spec });
  }

  /** Sends `spec` under the retry policy. */
  request<T>(spec: RequestSpec<T>): Promise<T> {
    const { timing, retryPolicy, log, onRetry } = this.#options;
    return runWithRetries(() => this.#once(spec), {
      policy: retryPolicy,
      timing,
      idempotent: spec.idempotent ?? spec.method === "GET",
      signal: spec.signal,
      lookup: spec.lookup,
      afterAmbiguous: spec.afterAmbiguous,
      onRetry: (error, decision, retriesDone) => {
        const delayMs = decision.action === "stop" ? 0 : decision.delayMs;
        log?.(
          `${spec.method} ${spec.path} failed (${error.name}: ${error.message}); ${decision.action} #${retriesDone + 1} in ${delayMs} ms`,
        );
        const { method, path } = spec;
        notify(onRetry, {
          method,
          path,
          error,
          retry: retriesDone + 1,
          maxRetries: retryPolicy.maxRetries,
          delayMs,
        });
      },
    });
  }

  async #once<T>(spec: RequestSpec<T>): Promise<T> {
    throwIfAborted(spec.signal);
    const label: RequestLabel = { method: spec.method, path: spec.path };
    const limiter = this.#options.rateLimiter;
    const permit = limiter && (await limiter.acquire(spec.signal));
    notify(spec.onSent);
    const started = this.#options.timing.now();
    let response: AxiosResponse<unknown>;
    try {
      response = await this.#send(spec, label);
    } catch (error) {
      if (permit) limiter?.settle(permit, {});
      throw error;
    }
    this.#options.log?.(
      `${spec.method} ${spec.path} → ${response.status} (${this.#options.timing.now() - started} ms)`,
    );
    const body = typeof response.data === "string" ? response.data : "";
    const retryAfterMs = retryAfterFromHeaders(
      {
        "retry-after-ms": headerValue(response, "retry-after-ms"),
        "retry-after": headerValue(response, "retry-after"),
      },
      this.#options.timing.now(),
    );
    if (permit) limiter?.settle(permit, { status: response.status, retryAfterMs });
    if (response.status < 200 || response.status >= 300) {
      throw errorFromResponse({ status: response.status, body, retryAfterMs }, label);
    }
    return parseBody(body, spec.schema, label, response.status) as T;
  }

  async #send(spec: RequestSpec<unknown>, label: RequestLabel): Promise<AxiosResponse<unknown>> {
    const waiting = waitingNotices(spec);
    try {
      return await this.#axios.request({
        ...(spec.timeoutMs === undefined ? {} : { timeout: spec.timeoutMs }),
        method: spec.method,
        url: spec.path,
        params:
          spec.query && Object.keys(spec.query).length > 0 ? new URLSearchParams(spec.query) : undefined,
        data: spec.body === undefined ? undefined : JSON.stringify(spec.body),
        headers: spec.body === undefined ? undefined : { "Content-Type": "application/json" },
        signal: spec.signal,
      });
    } catch (error) {
      if (axios.isCancel(error) || spec.signal?.aborted) throw new AbortedError(undefined, label);
      if (axios.isAxiosError(error)) throw errorFromTransport(error.code, error.message, label);
      throw error;
    } finally {
      if (waiting !== undefined) clearInterval(waiting);
    }
  }

  /** Only the base URL: the key and headers stay out of logs and inspection. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `HttpClient { baseUrl: ${JSON.stringify(this.#baseUrl)} }`;
  }

  /** Only the base URL, for structured logs. */
  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#baseUrl };
  }
}

/**
 * Pure: a 2xx body checked against the contract. Without a schema the body is ignored (any 2xx,
 * empty or JSON, is success). A mismatch names the field and the request.
 */
export function parseBody<T>(
  body: string,
  schema: z.ZodType<T> | undefined,
  request: RequestLabel,
  status: number,
): T | undefined {
  if (schema === undefined) return undefined;
  const where = `${request.method} ${request.path}`;
  let json: unknown;
  try {
    json = body.trim() === "" ? undefined : JSON.parse(body);
  } catch {
    throw new ResponseValidationError(`response of ${where} is not JSON`, { ...request, status });
  }
  const result = schema.safeParse(json, { reportInput: true });
  if (!result.success) {
    const problem = json === undefined ? "the body is empty" : summarizeIssues(result.error.issues);
    throw new ResponseValidationError(`response of ${where} does not match the contract: ${problem}`, {
      ...request,
      status,
      code: "response_validation_failed",
    });
  }
  return result.data;
}

/** At most a few issues: a drifted list of a thousand machines would otherwise give a huge message. */
function summarizeIssues(issues: Parameters<typeof formatIssues>[0]): string {
  const shown = formatIssues(issues.slice(0, MAX_ISSUES_SHOWN));
  return issues.length > MAX_ISSUES_SHOWN ? `${shown}; and ${issues.length - MAX_ISSUES_SHOWN} more` : shown;
}

/**
 * The timer of `onWaiting` for one attempt, on the real clock like the request's own timeout; it
 * never keeps the process alive.
 */
function waitingNotices(spec: RequestSpec<unknown>): ReturnType<typeof setInterval> | undefined {
  const { onWaiting, waitingEveryMs } = spec;
  if (onWaiting === undefined || waitingEveryMs === undefined || waitingEveryMs <= 0) return undefined;
  let told = 0;
  const timer = setInterval(() => notify(onWaiting, ++told * waitingEveryMs), waitingEveryMs);
  timer.unref();
  return timer;
}

function headerValue(response: AxiosResponse<unknown>, name: string): string | undefined {
  const value: unknown = response.headers[name];
  return typeof value === "string" ? value : undefined;
}
