/** The harness's view of a running plugin: start options, protocol flags and per-RPC results. */
import type { LogEntry } from "./engineLog";
import type { UrnOptions } from "./serialize";
import type { Props, Secret } from "./values";

export interface StartOptions {
  /** Working directory of the plugin; `@pulumi/pulumi` must resolve from it. Default: repo root. */
  cwd?: string;
  /** Extra environment for the plugin (added to this process's environment, as the engine does). */
  env?: Record<string, string>;
  /** Project name: sets PULUMI_NODEJS_PROJECT/PULUMI_PROJECT like the engine. Default "project". */
  project?: string;
  /** Stack name used by {@link ProviderPlugin.urn} and the default provider URN. Default "stack". */
  stack?: string;
  /**
   * Also set PULUMI_NODEJS_ENGINE so `pulumi.log.*` in provider code reaches the Engine gRPC sink
   * (entries with source "engine"). The real engine does NOT do this: there, `pulumi.log.info`
   * prints `info: [runtime] <msg>` on stdout. Default false (faithful).
   */
  structuredLogs?: boolean;
  /** Deadline per RPC in ms (the engine sets none). Default 30000. */
  callTimeoutMs?: number;
  /** How long to wait for the plugin to print its port. Default 30000. */
  startTimeoutMs?: number;
}

export type ConfigValue = string | Secret;

export interface Protocol {
  acceptSecrets: boolean;
  acceptResources: boolean;
  supportsPreview: boolean;
  acceptOutputs: boolean;
}

export interface CheckResult {
  inputs: Props;
  failures: { property: string; reason: string }[];
}
export interface DiffResult {
  /** What the engine concludes (a DIFF_UNKNOWN answer falls back to comparing old and new inputs). */
  changes: boolean;
  /** What the provider answered: `diff` returning `changes: undefined`, or no `diff` method, is "unknown". */
  changesKind: "some" | "none" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Always empty for dynamic providers (the plugin forwards neither `diffs` nor `stables`). */
  diffs: string[];
  stables: string[];
}
export interface CreateResult {
  id: string;
  outs: Props;
  /** False when the engine answered without calling the plugin (preview on a provider without preview support). */
  providerCalled: boolean;
}
export interface ReadResult {
  /** Empty when the provider reports the resource gone. */
  id: string;
  props: Props;
  /** Undefined when the provider returned no inputs (the engine then keeps the inputs it had). */
  inputs?: Props;
}
export interface UpdateResult {
  outs: Props;
  providerCalled: boolean;
}

export interface ProviderPlugin {
  readonly pid: number;
  readonly address: string;
  readonly engineAddress: string;
  readonly project: string;
  readonly stack: string;
  /** The plugin's GetPluginInfo version. */
  readonly version: string;
  /** Protocol flags from the Configure response (undefined before configure). */
  readonly protocol: Protocol | undefined;
  /** URN of a dynamic resource in this harness's project and stack. */
  urn(name: string, opts?: Omit<UrnOptions, "stack" | "project">): string;
  /** Stack config, keys namespaced (`vmapi:apiKey`); wrap secure values with {@link secret}. */
  configure(config: Record<string, ConfigValue>): Promise<void>;
  check(urn: string, olds: Props, news: Props, opts?: { preview?: boolean }): Promise<CheckResult>;
  /** `olds` are the old OUTPUTS (state); that is what the engine sends and what provider `diff` receives. */
  diff(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
    opts?: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[] },
  ): Promise<DiffResult>;
  create(urn: string, props: Props, opts?: { preview?: boolean; timeout?: number }): Promise<CreateResult>;
  read(id: string, urn: string, props: Props, inputs?: Props): Promise<ReadResult>;
  /** `olds` are the old OUTPUTS (state), as the engine sends and provider `update` receives. */
  update(
    id: string,
    urn: string,
    olds: Props,
    news: Props,
    opts?: { oldInputs?: Props; preview?: boolean; ignoreChanges?: string[]; timeout?: number },
  ): Promise<UpdateResult>;
  /** `props` are the OUTPUTS (state), as the engine sends and provider `delete` receives. */
  delete(
    id: string,
    urn: string,
    props: Props,
    opts?: { oldInputs?: Props; timeout?: number },
  ): Promise<void>;
  /** Every line the plugin printed and every Engine.Log message, as text. */
  readonly logs: string[];
  readonly logEntries: LogEntry[];
  clearLogs(): void;
  /** Resolves with the first log line matching `pattern` (already seen or arriving within `timeoutMs`). */
  waitForLog(pattern: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Waits until the plugin has been quiet for `idleMs` (max 2 s), so output of finished calls is in `logs`. */
  flushLogs(idleMs?: number): Promise<void>;
  /** Stops the plugin process (its whole process group) and the engine sink. */
  close(): Promise<void>;
}
