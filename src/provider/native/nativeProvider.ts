/**
 * The plugin door: the engine's requests, as plain values, to the same implementations the
 * dynamic door calls (implementations.ts), and their answers back. What a native provider is
 * given and a dynamic one never is, used here:
 * - the provider's own configuration (`configure`): one account per plugin process, resolved
 *   once; several accounts are several provider resources, each its own process;
 * - the URN: the resource's name and its identity, which names its unfinished creates;
 * - the engine's `randomSeed`, from which an auto-name is drawn (the same in a saved plan);
 * - each operation's timeout (`customTimeouts`), which bounds it as the dynamic door's inputs do;
 * - property-level diffs, so `preview --diff` names the input that changes and the one that
 *   forces a replace, and the engine applies `replaceOnChanges` itself.
 * Secrets arrive marked and leave marked (wireValues.ts); a plain value never reaches state.
 */
import type { Account } from "../account/account";
import { accountOf } from "../account/account";
import type { ProviderContext } from "../shared/context";
import { implementationOf, isResourceKind, type ResourceKind } from "../implementations";
import type { Call, EngineProps } from "../shared/resourceImplementation";
import { withoutSecrets } from "../shared/secretErrors";
import type { ProviderSettings } from "../shared/settings";
import { isDataSource, runDataSource } from "../functions/dataSources";
import { detailedDiff, type DetailedDiff } from "./detailedDiff";
import type { EngineLog } from "./engineLog";
import { identityOf, urnParts } from "./urns";
import { fromWire, toWire } from "./wireValues";
import { UNKNOWN } from "../shared/unknown";
import { pluginName } from "../../contract/typeTokens";
import type { NativeSchema } from "./schemaFile";

/** The operations whose timeout the engine sends. */
type TimedOperation = "create" | "update" | "delete";

/** A resource's answer: its id and properties as the engine stores them (secrets marked). */
export interface WireResult {
  id?: string;
  properties?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
}

/** The plugin's side of every request, once the server has decoded it. */
export class NativeProvider {
  private settings: ProviderSettings = {};

  constructor(
    private readonly context: ProviderContext,
    private readonly log: EngineLog,
    private readonly schema: NativeSchema,
  ) {}

  /** The provider's configuration, as `configure` gave it (plain values: in memory only). */
  configure(settings: ProviderSettings): void {
    this.settings = settings;
  }

  /** Validates new inputs, names an auto-named resource, and answers them marked as they came. */
  async check(urn: string, oldWire: EngineProps, newWire: EngineProps, randomSeed: Buffer) {
    const kind = this.kindOf(urn);
    const olds = fromWire(oldWire).props;
    const { props, secretKeys } = fromWire(newWire);
    const news: EngineProps = {
      ...props,
      ...identityInputs(urn),
      __randomSeed: randomSeed.length > 0 ? randomSeed.toString("hex") : undefined,
      __secretInputs: [...secretKeys],
    };
    const result = await this.run(kind, urn, news, (impl, call) => impl.check(olds, news, call));
    const { __randomSeed: _seed, __secretInputs: _secrets, ...inputs } = result.inputs;
    const secret = [...secretKeys, ...this.schema.secretInputs(kind)];
    return { inputs: toWire(inputs, secret), failures: result.failures };
  }

  /** The implementation's diff, property by property. */
  async diff(urn: string, id: string, oldWire: EngineProps, newWire: EngineProps): Promise<DetailedDiff> {
    const kind = this.kindOf(urn);
    const olds = fromWire(oldWire).props;
    const news = { ...fromWire(newWire).props, ...identityInputs(urn) };
    const result = await implementationOf(kind).diff(id, olds, news);
    return detailedDiff(result, olds, news);
  }

  async create(urn: string, wire: EngineProps, timeoutSeconds: number): Promise<WireResult> {
    const kind = this.kindOf(urn);
    const inputs = this.inputsOf(urn, wire, "create", timeoutSeconds);
    const created = await this.run(kind, urn, inputs, (impl, call) => impl.create(inputs, call));
    return { id: created.id, properties: this.outputs(kind, created.outs, inputs) };
  }

  /**
   * What a create will answer, as a preview shows it: the inputs, and every other output unknown
   * until the `up`. Nothing is sent.
   */
  previewCreate(urn: string, wire: EngineProps): WireResult {
    const kind = this.kindOf(urn);
    const inputs = this.inputsOf(urn, wire);
    const unknown = Object.fromEntries(this.schema.outputNames(kind).map((name) => [name, UNKNOWN]));
    return { properties: this.outputs(kind, { ...unknown, ...inputs }, inputs) };
  }

  /**
   * What an update will answer, as a preview shows it: the stored outputs with the new inputs
   * over them, so what does not change (the machine's id) stays known to what depends on it.
   */
  previewUpdate(
    urn: string,
    oldWire: EngineProps,
    newWire: EngineProps,
  ): { properties: Record<string, unknown> } {
    const kind = this.kindOf(urn);
    const olds = fromWire(oldWire).props;
    const news = this.inputsOf(urn, newWire);
    return { properties: this.outputs(kind, { ...olds, ...news }, news) };
  }

  async read(urn: string, id: string, wire: EngineProps): Promise<WireResult> {
    const kind = this.kindOf(urn);
    const props = this.inputsOf(urn, wire);
    const read = await this.run(kind, urn, props, (impl, call) => impl.read(id, props, call));
    if (read.id === undefined) return {};
    // Inputs as the resource stands, the naming ones included: a refresh that dropped
    // `__autoNamed` would make the next check draw another name (a rename, a script replaced).
    const inputs = read.inputs ?? {};
    return {
      id: read.id,
      properties: this.outputs(kind, read.props ?? {}, props),
      // What came secret stays secret: a script's text read back into its inputs, say.
      inputs: toWire(inputs, [...secretKeysOf(props), ...this.schema.secretInputs(kind)]),
    };
  }

  async update(urn: string, id: string, oldWire: EngineProps, newWire: EngineProps, timeoutSeconds: number) {
    const kind = this.kindOf(urn);
    const olds = fromWire(oldWire).props;
    const news = this.inputsOf(urn, newWire, "update", timeoutSeconds);
    const updated = await this.run(kind, urn, news, (impl, call) => impl.update(id, olds, news, call));
    return { properties: this.outputs(kind, updated.outs, news) };
  }

  async delete(urn: string, id: string, wire: EngineProps, timeoutSeconds: number): Promise<void> {
    const kind = this.kindOf(urn);
    const props = this.inputsOf(urn, wire, "delete", timeoutSeconds);
    await this.run(kind, urn, props, (impl, call) => impl.delete(id, props, call));
  }

  /** A data source: `vmapi:index:getUsers` and the others, on this provider's account. */
  async invoke(token: string, wire: EngineProps): Promise<{ outputs: Record<string, unknown> }> {
    const name = pluginName(token) ?? "";
    if (!isDataSource(name)) throw new Error(`pulumi-vmapi: unknown function ${token}`);
    const args = fromWire(wire).props;
    try {
      const result = await runDataSource(name, this.account().client, args);
      return { outputs: toWire(result as Record<string, unknown>, this.schema.secretResults(name)) };
    } catch (err) {
      throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The account of this provider, resolved once (the same object every call gets). */
  private account(): Account {
    return accountOf(this.settings, this.context);
  }

  private kindOf(urn: string): ResourceKind {
    const type = urnParts(urn).type;
    const kind = pluginName(type) ?? "";
    if (!isResourceKind(kind)) {
      throw new Error(`pulumi-vmapi: unknown resource type ${type}`);
    }
    return kind;
  }

  /** Stored properties as an implementation takes them: plain, with the identity and the bound. */
  private inputsOf(
    urn: string,
    wire: EngineProps,
    operation?: TimedOperation,
    timeoutSeconds = 0,
  ): EngineProps {
    const { props, secretKeys } = fromWire(wire);
    const inputs: EngineProps = { ...props, ...identityInputs(urn), __secretInputs: [...secretKeys] };
    // The engine's bound of this operation (`customTimeouts`), as the dynamic door's input carries it.
    if (operation !== undefined && timeoutSeconds > 0)
      inputs.__customTimeouts = { [operation]: `${Math.round(timeoutSeconds * 1000)}ms` };
    return inputs;
  }

  /** Outputs for the engine: the schema's secret outputs and every input that came secret, marked. */
  private outputs(kind: ResourceKind, outs: EngineProps, inputs: EngineProps): Record<string, unknown> {
    const { __secretInputs: _secrets, __customTimeouts: _bound, ...rest } = outs;
    return toWire(rest, [...secretKeysOf(inputs), ...this.schema.secretOutputs(kind)]);
  }

  /** Runs one call of `kind`'s implementation on this provider's account, its lines on the URN's row. */
  private async run<T>(
    kind: ResourceKind,
    urn: string,
    inputs: EngineProps,
    body: (impl: ReturnType<typeof implementationOf>, call: Call) => Promise<T>,
  ): Promise<T> {
    try {
      const call: Call = {
        account: this.account(),
        progress: (message) => this.log.log("info", message, urn),
        warn: (message) => this.log.log("warning", message, urn),
      };
      return await body(implementationOf(kind), call);
    } catch (err) {
      throw this.answerable(kind, withoutSecrets(err, inputs), inputs);
    }
  }

  /**
   * `err` as the engine can be told it: a partial failure's properties (the resource exists: `id`
   * and `properties`) shaped as outputs are, secrets marked and undefined values left out (the
   * protocol's Struct cannot carry one: the failure would never be answered).
   */
  private answerable(kind: ResourceKind, err: unknown, inputs: EngineProps): unknown {
    const partial = err as { id?: unknown; properties?: unknown };
    if (
      typeof partial?.id === "string" &&
      typeof partial.properties === "object" &&
      partial.properties !== null
    )
      partial.properties = this.outputs(kind, partial.properties as EngineProps, inputs);
    return err;
  }
}

/** The keys that came secret, as `inputsOf` noted them in `__secretInputs`. */
function secretKeysOf(props: EngineProps): string[] {
  return Array.isArray(props.__secretInputs) ? (props.__secretInputs as string[]) : [];
}

/** What identifies the resource of `urn` to an implementation: its name and its identity. */
function identityInputs(urn: string): EngineProps {
  return { __resourceName: urnParts(urn).name, __namingSeed: identityOf(urn) };
}
