/**
 * The step generator and executor of the program runner: what the Pulumi engine does with each
 * resource registration (pkg/resource/deploy/step_generator.go, step_executor.go), reduced to
 * what matters for our dynamic resources, driving the real dynamic-provider plugin.
 */
import {
  PartialFailureError,
  Secret,
  UNKNOWN,
  type PropValue,
  type ProviderPlugin,
  type Props,
} from "./providerHarness";
import { deleteResource, markSecret, stepOf } from "./programRunnerOps";
import {
  fromWire,
  toWire,
  type RegisterMessage,
  type ReplyMessage,
  type WireProps,
} from "./programRunnerWire";
import {
  inputsOf,
  liveResource,
  outputsOf,
  putResource,
  resourceUrn,
  type StackState,
  type StateResource,
  type Step,
} from "./programRunnerState";

/** A registration as the step generator sees it. */
interface Goal {
  urn: string;
  type: string;
  name: string;
  news: Props;
  options: RegisterMessage["options"];
}

/** What RegisterResource answers the program: the id and the outputs it sees. */
interface Registered {
  id?: string;
  state: WireProps;
}

/** One `up` or `preview` over a stack state: registrations in, steps and state changes out. */
export class Deployment {
  readonly steps: Step[] = [];
  readonly errors: string[] = [];
  private readonly seen = new Set<string>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    /** Started while the program starts, as the engine loads plugins on demand. */
    private readonly pluginReady: Promise<ProviderPlugin>,
    private readonly state: StackState,
    private readonly ids: { project: string; stack: string; preview: boolean },
  ) {}

  /** Handles one registration; independent registrations run concurrently, as in the engine. */
  register(m: RegisterMessage): Promise<ReplyMessage> {
    const p = this.registerStep(m).then(
      (r): ReplyMessage => ({ kind: "registered", rid: m.rid, ...r }),
      (e: Error): ReplyMessage => ({ kind: "rejected", rid: m.rid, message: e.message }),
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  /** Resolves when every step started so far has finished. */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Records an error that fails the update; further registrations are refused. */
  fail(message: string): Error {
    this.errors.push(message);
    return new Error(message);
  }

  /** After the program: deletes resources it no longer registers and replaced ones, newest first. */
  async deleteLeftovers(): Promise<void> {
    const leftovers = this.state.resources.filter((r) => r.pendingDelete || !this.seen.has(r.urn));
    for (const r of [...leftovers].sort((a, b) => b.order - a.order)) {
      if (this.ids.preview) {
        this.steps.push(stepOf(r.pendingDelete ? "delete-replaced" : "delete", r));
        continue;
      }
      const plugin = await this.pluginReady;
      if (!(await deleteResource(plugin, this.state, r, this.steps, (m) => this.fail(m)))) return;
    }
  }

  private async registerStep(m: RegisterMessage): Promise<Registered> {
    if (this.errors.length > 0) throw new Error("update canceled: an earlier step failed");
    const urn = resourceUrn(this.ids.stack, this.ids.project, m.type, m.name, m.parent);
    if (this.seen.has(urn)) throw this.fail(`Duplicate resource URN '${urn}'; try giving it a unique name`);
    this.seen.add(urn);
    const old = liveResource(this.state, urn);
    const news = ignoreChanges(fromWire(m.inputs), old, m.options.ignoreChanges);
    const options = { ...m.options, dependencies: m.options.dependencies.map(engineUrn) };
    const goal: Goal = { urn, type: m.type, name: m.name, news, options };
    const inputs = await this.check(goal, old ? inputsOf(old) : {});
    return old ? this.diffAndApply(goal, old, inputs) : this.create(goal, inputs, "create");
  }

  /** Check; failures fail the update with the engine's diagnostic for each property. */
  private async check(goal: Goal, olds: Props): Promise<Props> {
    const plugin = await this.pluginReady;
    const { inputs, failures } = await plugin.check(goal.urn, olds, goal.news, {
      preview: this.ids.preview,
    });
    if (failures.length === 0) return inputs;
    const lines = failures.map((f) =>
      f.property
        ? `${goal.type} resource '${goal.name}'s property '${f.property}' value ${goValue(inputs[f.property])} has a problem: ${f.reason}`
        : `${goal.type} resource '${goal.name}' has a problem: ${f.reason}`,
    );
    throw this.fail(lines.join("\n"));
  }

  private async diffAndApply(goal: Goal, old: StateResource, inputs: Props): Promise<Registered> {
    const plugin = await this.pluginReady;
    const diff = await plugin.diff(old.id, goal.urn, outputsOf(old), inputs, {
      oldInputs: inputsOf(old),
      preview: this.ids.preview,
      ignoreChanges: goal.options.ignoreChanges,
    });
    if (diff.changes && diff.replaces.length > 0) {
      const dbr = goal.options.deleteBeforeReplace ?? diff.deleteBeforeReplace;
      return this.replace(goal, old, diff.replaces, dbr);
    }
    if (diff.changes || old.initErrors?.length) return this.update(goal, old, inputs);
    this.steps.push(stepOf("same", old));
    if (!this.ids.preview) Object.assign(old, { inputs: toWire(inputs), options: goal.options });
    return { id: old.id, state: old.outputs };
  }

  /** Create-before-delete (default) or delete-before-create, with a fresh check (new auto-name). */
  private async replace(
    goal: Goal,
    old: StateResource,
    replaces: string[],
    dbr: boolean,
  ): Promise<Registered> {
    if (old.options.protect && goal.options.protect) {
      throw this.fail(`unable to replace resource "${goal.urn}" as it is currently marked for protection`);
    }
    const inputs = await this.check(goal, {});
    const step: Step = { ...stepOf("replace", old), oldId: old.id, replaces };
    if (this.ids.preview) {
      this.steps.push({ ...step, id: "" });
      return { state: toWire(inputs) };
    }
    if (!dbr) return this.create(goal, inputs, "replace", step, old);
    if (!(await deleteResource(await this.pluginReady, this.state, old, [], (m) => this.fail(m)))) {
      throw new Error(this.errors[this.errors.length - 1]);
    }
    return this.create(goal, inputs, "replace", step);
  }

  /** `replacing`: the old resource of a create-before-delete, pending deletion once this one exists. */
  private async create(
    goal: Goal,
    inputs: Props,
    op: "create" | "replace",
    step?: Step,
    replacing?: StateResource,
  ): Promise<Registered> {
    const base = step ?? { op, urn: goal.urn, type: goal.type, name: goal.name };
    if (this.ids.preview) {
      this.steps.push({ ...base, id: "" });
      return { state: toWire(inputs) };
    }
    try {
      const plugin = await this.pluginReady;
      const { id, outs } = await plugin.create(goal.urn, inputs).catch((err: unknown) => {
        if (replacing && err instanceof PartialFailureError) replacing.pendingDelete = true;
        throw err;
      });
      if (replacing) replacing.pendingDelete = true;
      this.record(goal, id, inputs, outs);
      this.steps.push({ ...base, id });
      return { id, state: this.liveOutputs(goal.urn) };
    } catch (err) {
      return this.stepFailed(goal, inputs, base, err);
    }
  }

  private async update(goal: Goal, old: StateResource, inputs: Props): Promise<Registered> {
    const base = { ...stepOf("update", old), id: old.id };
    if (this.ids.preview) {
      this.steps.push(base);
      return { id: old.id, state: toWire(inputs) };
    }
    try {
      const plugin = await this.pluginReady;
      const { outs } = await plugin.update(old.id, goal.urn, outputsOf(old), inputs, {
        oldInputs: inputsOf(old),
        ignoreChanges: goal.options.ignoreChanges,
      });
      this.record(goal, old.id, inputs, outs);
      this.steps.push(base);
      return { id: old.id, state: this.liveOutputs(goal.urn) };
    } catch (err) {
      return this.stepFailed(goal, inputs, base, err);
    }
  }

  /** A partial failure keeps the resource (with its id and outputs) in state, marked failed. */
  private stepFailed(goal: Goal, inputs: Props, step: Step, err: unknown): never {
    this.steps.push({ ...step, failed: true });
    if (err instanceof PartialFailureError) {
      this.record(goal, err.id, inputs, err.outs, err.reasons);
      throw this.fail(`${goal.urn}: ${err.message.trim()}`);
    }
    throw this.fail(`${goal.urn}: ${(err as Error).message}`);
  }

  private record(goal: Goal, id: string, inputs: Props, outs: Props, initErrors?: string[]): void {
    putResource(this.state, {
      urn: goal.urn,
      type: goal.type,
      id,
      inputs,
      outputs: markSecret(outs, goal.options.additionalSecretOutputs),
      options: goal.options,
      initErrors,
    });
  }

  private liveOutputs(urn: string): WireProps {
    return liveResource(this.state, urn)!.outputs;
  }
}

/** ignoreChanges on top-level keys: the old input value stands in for the new one. */
function ignoreChanges(news: Props, old: StateResource | undefined, keys: string[]): Props {
  if (!old || keys.length === 0) return news;
  const olds = inputsOf(old);
  const result = { ...news };
  for (const k of keys) {
    if (k in olds) result[k] = olds[k];
    else delete result[k];
  }
  return result;
}

/** The mock monitor qualifies top-level types with the stack's type; the engine does not. */
function engineUrn(urn: string): string {
  return urn.replace("::pulumi:pulumi:Stack$", "::");
}

/** Go's `PropertyValue.String()`: `{value}`, `output{}` for unknowns. */
function goValue(v: PropValue | undefined): string {
  if (v === UNKNOWN) return "output{}";
  if (v instanceof Secret) return "{[secret]}";
  if (v === undefined || v === null) return "{<nil>}";
  return `{${typeof v === "object" ? JSON.stringify(v) : String(v)}}`;
}
