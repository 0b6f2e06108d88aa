/**
 * The plugin door: the engine's requests, as plain values, to the same implementations the
 * TypeScript door calls (implementations.ts), and their answers back. Everything a native
 * provider is given and a dynamic one never is goes into each call's `Call` (pluginBags.ts):
 * - the provider's own configuration (`configure`): one account per plugin process, resolved
 *   once; several accounts are several provider resources, each its own process;
 * - the URN: the resource's name, and its identity, which names its unfinished creates;
 * - the engine's `randomSeed`, from which an auto-name is drawn (the same in a saved plan);
 * - each operation's timeout (`customTimeouts`), which bounds it;
 * - which inputs came secret;
 * - the engine's log, where every line and warning of the call lands on the resource's own row;
 * and property-level diffs go back, so `preview --diff` names the input that changes and the one
 * that forces a replace, and the engine applies `replaceOnChanges` itself. Secrets arrive marked
 * and leave marked (wireValues.ts); a plain value never reaches state.
 */
import { Accounts } from "../account/accounts";
import type { ProviderContext } from "../account/context";
import { implementationOf, isResourceKind, type Implementation, type ResourceKind } from "../implementations";
import type { AccountCall, Call, EngineProps } from "../shared/resourceImplementation";
import { keptOnPartialFailure } from "../shared/partialFailure";
import type { ProviderSettings } from "../account/settings";
import { isDataSource, runDataSource } from "../functions/dataSources";
import { detailedDiff, type DetailedDiff } from "./detailedDiff";
import type { EngineLog } from "./engineLog";
import { engineTimeoutOf, openWire, resourceFacts, withAutoNamed, type WireBag } from "./pluginBags";
import { urnParts } from "./urns";
import { toWire } from "./wireValues";
import { UNKNOWN } from "../shared/unknown";
import { pluginName } from "../../contract/typeTokens";
import type { NativeSchema } from "./schemaFile";

/** A resource's answer: its id and properties as the engine stores them (secrets marked). */
export interface WireResult {
  id?: string;
  properties?: Record<string, unknown>;
  inputs?: Record<string, unknown>;
}

/** The plugin's side of every request, once the server has decoded it. */
export class NativeProvider {
  private accounts: Accounts;

  constructor(
    private readonly context: ProviderContext,
    private readonly log: EngineLog,
    private readonly schema: NativeSchema,
  ) {
    this.accounts = new Accounts({}, context);
  }

  /** The provider's configuration, as `configure` gave it (plain values: in memory only). */
  configure(settings: ProviderSettings): void {
    this.accounts = new Accounts(settings, this.context);
  }

  /** Validates new inputs, names an auto-named resource, and answers them marked as they came. */
  async check(urn: string, oldWire: EngineProps, newWire: EngineProps, randomSeed: Buffer) {
    const kind = this.kindOf(urn);
    const olds = openWire(oldWire);
    const news = openWire(newWire);
    const seed = randomSeed.length > 0 ? randomSeed.toString("hex") : undefined;
    const call = this.callOf(urn, news, { resource: resourceFacts(urn, olds.autoNamed, seed) });
    const result = await this.run(kind, news, (impl) => impl.check(olds.plain, news.plain, call));
    const secret = [...news.secretKeys, ...this.schema.secretInputs(kind)];
    return {
      inputs: toWire(withAutoNamed(result.inputs, result.autoNamed === true), secret),
      failures: result.failures,
    };
  }

  /** The implementation's diff, property by property; its warnings on the resource's row. */
  async diff(urn: string, id: string, oldWire: EngineProps, newWire: EngineProps): Promise<DetailedDiff> {
    const kind = this.kindOf(urn);
    const olds = openWire(oldWire);
    const news = openWire(newWire);
    const secretInputs = [...new Set([...olds.secretKeys, ...news.secretKeys])];
    const call = this.callOf(urn, news, { secretInputs });
    const result = await this.run(kind, news, (impl) => impl.diff(id, olds.plain, news.plain, call));
    return detailedDiff(result, olds.plain, news.plain);
  }

  async create(urn: string, wire: EngineProps, timeoutSeconds: number): Promise<WireResult> {
    const kind = this.kindOf(urn);
    const inputs = openWire(wire);
    const call = this.callOf(urn, inputs, { timeout: engineTimeoutOf("create", timeoutSeconds) });
    const created = await this.run(kind, inputs, (impl) => impl.create(inputs.plain, call));
    return { id: created.id, properties: this.outputs(kind, created.outs, inputs) };
  }

  /**
   * What a create will answer, as a preview shows it: the inputs, and every other output unknown
   * until the `up`. Nothing is sent.
   */
  previewCreate(urn: string, wire: EngineProps): WireResult {
    const kind = this.kindOf(urn);
    const inputs = openWire(wire);
    const unknown = Object.fromEntries(this.schema.outputNames(kind).map((name) => [name, UNKNOWN]));
    return { properties: this.outputs(kind, { ...unknown, ...inputs.plain }, inputs) };
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
    const olds = openWire(oldWire);
    const news = openWire(newWire);
    return { properties: this.outputs(kind, { ...olds.plain, ...news.plain }, news) };
  }

  /**
   * A read: `pulumi import` and `get` (no stored inputs) or a refresh (`oldInputsWire`, the
   * resource's stored inputs). A refresh answers the stored inputs' own keys, each with the value
   * read where the API tells it and as stored where it does not (a password, a wait's bound): the
   * inputs of a resource nothing changed are then the ones stored, so the next preview's and
   * `up`'s checked inputs equal them and the engine writes no state for it. A read that added
   * the keys the program never declared (a machine's network, its user, its settings) made
   * every resource's checked inputs differ from its stored ones after each refresh, and the engine
   * then saved the whole state once for each resource of the next preview and `up`.
   */
  async read(
    urn: string,
    id: string,
    wire: EngineProps,
    oldInputsWire: EngineProps = {},
  ): Promise<WireResult> {
    const kind = this.kindOf(urn);
    const props = openWire(wire);
    const call = this.callOf(urn, props);
    const read = await this.run(kind, props, (impl) => impl.read(id, props.plain, call));
    if (read.id === undefined) return {};
    const stored = openWire(oldInputsWire);
    const refreshed = Object.keys(stored.plain).length > 0;
    const readInputs = read.inputs ?? {};
    const values = refreshed
      ? Object.fromEntries(
          Object.keys(stored.plain).map((key) => [
            key,
            key in readInputs ? readInputs[key] : stored.plain[key],
          ]),
        )
      : readInputs;
    // Inputs as the resource stands, whether its name was drawn included: a refresh that dropped
    // it would make the next check draw another name (a rename, a script replaced).
    const inputs = withAutoNamed(values, props.autoNamed);
    return {
      id: read.id,
      properties: this.outputs(kind, read.props ?? {}, props),
      // What came secret stays secret: a script's text read back into its inputs, say.
      inputs: toWire(inputs, [...props.secretKeys, ...stored.secretKeys, ...this.schema.secretInputs(kind)]),
    };
  }

  async update(urn: string, id: string, oldWire: EngineProps, newWire: EngineProps, timeoutSeconds: number) {
    const kind = this.kindOf(urn);
    const olds = openWire(oldWire);
    const news = openWire(newWire);
    const call = this.callOf(urn, news, { timeout: engineTimeoutOf("update", timeoutSeconds) });
    const updated = await this.run(kind, news, (impl) => impl.update(id, olds.plain, news.plain, call));
    return { properties: this.outputs(kind, updated.outs, news) };
  }

  async delete(urn: string, id: string, wire: EngineProps, timeoutSeconds: number): Promise<void> {
    const kind = this.kindOf(urn);
    const props = openWire(wire);
    const call = this.callOf(urn, props, { timeout: engineTimeoutOf("delete", timeoutSeconds) });
    await this.run(kind, props, (impl) => impl.delete(id, props.plain, call));
  }

  /** A data source: `vmapi:index:getUsers` and the others, on this provider's account. */
  async invoke(token: string, wire: EngineProps): Promise<{ outputs: Record<string, unknown> }> {
    const name = pluginName(token) ?? "";
    if (!isDataSource(name)) throw new Error(`pulumi-vmapi: unknown function ${token}`);
    const args = openWire(wire).plain;
    try {
      const result = await runDataSource(name, this.accountCall(), args);
      return { outputs: toWire(result as Record<string, unknown>, this.schema.secretResults(name)) };
    } catch (err) {
      throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  private kindOf(urn: string): ResourceKind {
    const type = urnParts(urn).type;
    const kind = pluginName(type) ?? "";
    if (!isResourceKind(kind)) {
      throw new Error(`pulumi-vmapi: unknown resource type ${type}`);
    }
    return kind;
  }

  /** A call on this provider's account (resolved once per configuration), its lines to the engine's log. */
  private accountCall(urn?: string): AccountCall {
    return {
      account: this.accounts.of(undefined),
      progress: (message) => this.log.log("info", message, urn),
      warn: (message) => this.log.log("warning", message, urn),
    };
  }

  /** The call of one request about the resource of `urn`, whose inputs are `on`; its lines on the URN's row. */
  private callOf(urn: string, on: WireBag, facts: Partial<Call> = {}): Call {
    return {
      ...this.accountCall(urn),
      resource: resourceFacts(urn, on.autoNamed),
      secretInputs: [...on.secretKeys],
      // The engine applies `replaceOnChanges` itself, to the property-level diff.
      replaceOnChanges: [],
      ...facts,
    };
  }

  /**
   * Runs one call of `kind`'s implementation (its secrets masked by the serving layer); a partial
   * failure it throws is answered with its properties shaped as outputs are (`outputs`: secrets
   * marked, undefined values left out, which the protocol's Struct cannot carry).
   */
  private async run<T>(
    kind: ResourceKind,
    inputs: WireBag,
    body: (impl: Implementation) => Promise<T>,
  ): Promise<T> {
    try {
      return await body(implementationOf(kind));
    } catch (err) {
      throw keptOnPartialFailure(err, (properties) => this.outputs(kind, properties, inputs));
    }
  }

  /**
   * Outputs for the engine: what the door keeps beside them (whether the name was drawn), the
   * schema's secret outputs and every input that came secret marked.
   */
  private outputs(kind: ResourceKind, outs: EngineProps, inputs: WireBag): Record<string, unknown> {
    const secret = [...inputs.secretKeys, ...this.schema.secretOutputs(kind)];
    return toWire(withAutoNamed(outs, inputs.autoNamed), secret);
  }
}
