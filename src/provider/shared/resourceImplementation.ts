/**
 * What every resource kind implements, protocol-free, and what each of its calls is given: both
 * doors (the TypeScript door, runtime.ts over dynamic/dynamicProvider.ts; the plugin,
 * native/nativeProvider.ts) call the same `ResourceImplementation<XInputs, XOutputs>`.
 *
 * An implementation is handed plain property bags: the program's inputs (during a preview, any of
 * them may be the unknown sentinel, unknown.ts), and the outputs some version of this package
 * stored (test/e2e/fixtures/machine-stack-0.1.0.json). So the typed bags here, `Props<Fields>`,
 * promise only what such a bag can keep: each known field optional and of its type, and every
 * other key (an input an earlier version wrote) as `unknown`. `check` is where new inputs are
 * validated; stored outputs are never validated (that would refuse old state): the code reads
 * them field by field with the fallbacks old state needs (machineModel.ts, `declaredPowerState`).
 *
 * Nothing the engine says travels inside those bags: the resource's name and identity, its
 * naming seed, the operation's timeout, which inputs are secret, and where its lines go come in
 * the `Call`, as pulumi-go-provider's `infer` hands a resource `req.Name` beside `req.Inputs`.
 * Whatever a door must keep in state to tell them again (the TypeScript door's `__` inputs, the
 * plugin's `__autoNamed`) it decodes and strips at its own boundary, and stores back there.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Account } from "../account/account";
import type { Bound } from "./operationOptions";
import type { ProgressSink } from "../account/progress";

/** A property bag as the engine hands it over: nothing known about its keys or values. */
export type EngineProps = Record<string, unknown>;

/** One resource's properties as an implementation sees them: the known `Fields`, each optional, and any other key as `unknown`. */
export type Props<Fields> = Partial<Fields> & EngineProps;

/**
 * What every call of an implementation is given, a data source's too: the account it runs on
 * (resolved once per configuration), and where its lines go (the resource's own row on the
 * plugin; on the TypeScript door the stack's log, the only place a dynamic provider can write).
 */
export interface AccountCall {
  readonly account: Account;
  readonly progress: ProgressSink;
  readonly warn: ProgressSink;
}

/**
 * What the engine says of the resource a call is about. Each door tells it from what it has: the
 * plugin from the request (the URN, the engine's `randomSeed`), the TypeScript door from the
 * internal inputs its classes register, which the engine never gives a Node dynamic provider.
 */
export interface ResourceFacts {
  /**
   * The resource's name in the program (the last part of its URN), what an auto-name starts
   * with; undefined where the door is not told it (a TypeScript resource that is not auto-named).
   */
  readonly name?: string;
  /**
   * What identifies the resource across deployments, a digest: the token of its creating names
   * (contract/unfinishedCreates.ts) and the key of the names `check` saw (naming.ts). Empty when
   * nothing identifies it (a program of another copy of the package that sent no name).
   */
  readonly identity: string;
  /**
   * What an auto-name is drawn from, the same in a preview, the `up` after it and a saved plan:
   * the engine's `randomSeed` on the plugin, the identity on the TypeScript door (never given one).
   */
  readonly namingSeed: string;
  /**
   * Whether the name among the call's inputs was drawn by auto-naming (for `check`: the name the
   * state holds, in its olds), as the door stored it.
   */
  readonly autoNamed: boolean;
}

/**
 * What a door hands each call of a resource's implementation besides its arguments: its account
 * and where its lines go, and the engine's facts about the resource and the operation. A preview
 * reaches no create or update (the plugin answers those itself, from the inputs; a dynamic
 * provider is never asked), so no call needs to be told it is one.
 */
export interface Call extends AccountCall {
  readonly resource: ResourceFacts;
  /** The operation's own bound (`customTimeouts` of create, update or delete), when one is set. */
  readonly timeout?: Bound;
  /** The inputs the program made secret: never shown in a line, a failure or an error. */
  readonly secretInputs: readonly string[];
  /**
   * `replaceOnChanges` as the program declared it, which the serving layer (serving.ts) refuses
   * in `check` when a path names no input and applies to `diff`; an implementation need not read
   * it. Empty on the plugin, where the engine applies it itself.
   */
  readonly replaceOnChanges: readonly string[];
}

/**
 * `check`'s answer: the inputs as the later calls receive them, what is wrong with them, and
 * whether their name was drawn by auto-naming (a door stores that, and tells it to every later call).
 */
export interface CheckResult<Inputs> {
  inputs: Inputs;
  failures: pulumi.dynamic.CheckFailure[];
  autoNamed?: boolean;
}

/** `create`'s answer: the new resource's id and outputs. */
export interface CreateResult<Outputs> {
  id: string;
  outs: Outputs;
}

/**
 * `read`'s answer: no id when the resource is gone; else its outputs, and its inputs as it stands
 * (values the API reports, which need not be ones `check` accepts: the next `check` says so).
 */
export interface ReadResult<Outputs> {
  id?: string;
  props?: Outputs;
  inputs?: EngineProps;
}

/**
 * `diff`'s answer: whether anything changes, which inputs force a replacement, and which change
 * at all (`changed`: the plugin's property-level diff, and what `replaceOnChanges` applies to;
 * the serving layer fills it in when an implementation leaves it out).
 */
export interface DiffResult {
  changes?: boolean;
  replaces?: string[];
  deleteBeforeReplace?: boolean;
  changed?: string[];
}

/** `update`'s answer: the outputs after the update. */
export interface UpdateResult<Outputs> {
  outs: Outputs;
}

/**
 * One resource kind's implementation, protocol-free: both doors call the same methods, each with
 * its `Call` last. `olds` of diff and update, and `props` of read and delete, are the stored
 * outputs. `Created` is what a create returns when that is more than any stored outputs promise
 * (all of its fields).
 */
export interface ResourceImplementation<
  Inputs extends EngineProps,
  Outputs extends EngineProps,
  Created extends Outputs = Outputs,
> {
  check(olds: Outputs, news: EngineProps, call: Call): Promise<CheckResult<Inputs>>;
  /** A diff calls no API. */
  diff(id: string, olds: Outputs, news: Inputs, call: Call): Promise<DiffResult>;
  create(inputs: Inputs, call: Call): Promise<CreateResult<Created>>;
  read(id: string, props: Outputs, call: Call): Promise<ReadResult<Outputs>>;
  update(id: string, olds: Outputs, news: Inputs, call: Call): Promise<UpdateResult<Outputs>>;
  delete(id: string, props: Outputs, call: Call): Promise<void>;
  /**
   * What replacing the resource costs, once a diff's replacements are final (the serving layer
   * calls it with `replaceOnChanges` applied): said in a warning, or refused by throwing. Calls
   * no API; left out where a replacement needs no word.
   */
  replacing?(id: string, olds: Outputs, news: Inputs, replaces: readonly string[], call: Call): void;
}

/** True when A and B are the same type: for the compile-time checks of the resource models. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile unless T is true. */
export type Assert<T extends true> = T;
