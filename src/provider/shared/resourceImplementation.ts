/**
 * What every resource kind implements behind the provider module in state (providerModule.ts), typed by its own inputs and
 * outputs: the four providers are each a `ResourceImplementation<XInputs, XOutputs>`, and the
 * runtime (runtime.ts) holds them through this one interface.
 *
 * The engine hands a dynamic provider plain property bags: the program's inputs (during a
 * preview, any of them may be the unknown sentinel, unknown.ts), and the outputs some version
 * of this package stored (test/e2e/fixtures/machine-stack-0.1.0.json). So the typed bags here,
 * `Props<Fields>`, promise only what such a bag can keep: each known field optional and of its
 * type, and every other key (the SDK's `__provider`, the naming and option inputs, a key an
 * earlier version wrote) as `unknown`. `check` is where new inputs are validated; stored outputs
 * are never validated (that would refuse old state): the code reads them field by field with
 * the fallbacks old state needs (machineModel.ts, `declaredPowerState`). The runtime's
 * `dispatch` is the one place where an engine bag is taken as such a typed bag (`invoke` there).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NAMING_INPUT_KEYS } from "./naming";
import type { OPTION_INPUT_KEYS, TimeoutInputs } from "./internalInputs";
import type { Account } from "../account/account";
import type { ProgressSink } from "./progress";

/** A property bag as the engine hands it over: nothing known about its keys or values. */
export type EngineProps = Record<string, unknown>;

/**
 * The inputs every resource class adds to the user's (naming.ts, resourceOptions.ts), with the
 * types those modules write; and `__provider`, the provider module (providerModule.ts).
 */
export interface InternalInputs {
  __resourceName: string;
  __autoNamed: boolean;
  __namingSeed: string;
  __customTimeouts: TimeoutInputs;
  __replaceOnChanges: string[];
  __secretInputs: string[];
  __provider: string;
}

/**
 * One resource's properties as they travel between the engine and a provider: the known
 * `Fields` (and the internal inputs), each optional, and any other key as `unknown`.
 */
export type Props<Fields> = Partial<Fields & InternalInputs> & EngineProps;

/** `check`'s answer: the inputs as the later calls receive them, and what is wrong with them. */
export interface CheckResult<Inputs> {
  inputs: Inputs;
  failures: pulumi.dynamic.CheckFailure[];
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
 * What a door hands each call of an implementation besides its arguments: the resource's account,
 * resolved once, and where this call's lines go (the stack's log in the dynamic door, the
 * resource's own row in the plugin).
 */
export interface Call {
  account: Account;
  progress: ProgressSink;
  warn: ProgressSink;
}

/**
 * `diff`'s answer: whether anything changes, which inputs force a replacement, and which change
 * at all (`changed`, for the plugin's property-level diff; the dynamic door has no use for it).
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
 * One resource kind's implementation, protocol-free: the dynamic door (runtime.ts) and the plugin
 * (native/) call the same methods. `olds` of diff and update, and `props` of read and delete, are
 * the stored outputs; every method but `diff` gets its `Call` last. `Created` is what a create
 * returns when that is more than any stored outputs promise (all of its fields).
 */
export interface ResourceImplementation<
  Inputs extends EngineProps,
  Outputs extends EngineProps,
  Created extends Outputs = Outputs,
> {
  check(olds: Outputs, news: EngineProps, call: Call): Promise<CheckResult<Inputs>>;
  /** A diff calls no API. */
  diff(id: string, olds: Outputs, news: Inputs): Promise<DiffResult>;
  create(inputs: Inputs, call: Call): Promise<CreateResult<Created>>;
  read(id: string, props: Outputs, call: Call): Promise<ReadResult<Outputs>>;
  update(id: string, olds: Outputs, news: Inputs, call: Call): Promise<UpdateResult<Outputs>>;
  delete(id: string, props: Outputs, call: Call): Promise<void>;
}

/** The name of one method of an implementation, as `dispatch` (runtime.ts) is called with it. */
export type Method = keyof ResourceImplementation<EngineProps, EngineProps>;

/*
 * Compile-time check that InternalInputs lists exactly the keys naming.ts and resourceOptions.ts
 * add (and the SDK's `__provider`), so a new internal input is typed here too.
 */
/** True when A and B are the same type: for the compile-time checks of the resource models. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Fails to compile unless T is true. */
export type Assert<T extends true> = T;
type _InternalInputsAreTheAddedKeys = Assert<
  Same<
    keyof InternalInputs,
    (typeof NAMING_INPUT_KEYS)[number] | (typeof OPTION_INPUT_KEYS)[number] | "__provider"
  >
>;
