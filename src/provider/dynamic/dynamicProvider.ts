/**
 * The TypeScript door's boundary: an implementation as the dynamic-provider plugin calls it, on
 * the engine's property bags. Each bag holds, beside the user's inputs, what the door must keep in
 * state because the engine never tells a Node dynamic provider: the internal `__` inputs
 * (internalInputs.ts) and the name of the resource's account (`account`). Here, and only here,
 * they are split off every bag; the implementation gets the plain inputs and a `Call` that says
 * what they meant (its account of the configuration, its name and identity, the operation's
 * bound, its secret inputs), and they are stored back into what the engine keeps: the inputs
 * `check` answers, the outputs, a partial failure's properties, the inputs a refresh reports.
 *
 * The account is the door's business too: the new inputs' for check and create, the stored
 * state's for diff, read, update and delete (so a machine is always deleted with the key of the
 * account that owns it). Moving a resource to another account replaces it.
 */
import { ACCOUNT_INPUT, type Accounts } from "../account/accounts";
import type { Implementation } from "../implementations";
import type { Bound } from "../shared/operationOptions";
import type {
  Call,
  CheckResult,
  CreateResult,
  DiffResult,
  EngineProps,
  ReadResult,
  UpdateResult,
} from "../shared/resourceImplementation";
import { keptOnPartialFailure } from "../shared/partialFailure";
import {
  checkedInternal,
  customTimeoutOf,
  namingOf,
  replaceOnChangesOf,
  resourceFactsOf,
  secretInputsOf,
  splitInternal,
  timeoutFailures,
  type Internal,
} from "./internalInputs";

/** An implementation over the engine's bags, as the runtime's provider objects call it. */
export interface DynamicProvider {
  check(olds: EngineProps, news: EngineProps): Promise<CheckResult<EngineProps>>;
  diff(id: string, olds: EngineProps, news: EngineProps): Promise<DiffResult>;
  create(inputs: EngineProps): Promise<CreateResult<EngineProps>>;
  read(id: string, props: EngineProps): Promise<ReadResult<EngineProps>>;
  update(id: string, olds: EngineProps, news: EngineProps): Promise<UpdateResult<EngineProps>>;
  delete(id: string, props: EngineProps): Promise<void>;
}

/** One bag as the door opens it: the implementation's part, the internal one, the account's name. */
interface DynamicBag {
  plain: EngineProps;
  internal: Internal;
  account: unknown;
}

/** `impl` on the engine's bags, its calls on the accounts of one configuration (module comment). */
export function dynamicProvider(impl: Implementation, accounts: Accounts): DynamicProvider {
  const callOf = (on: DynamicBag, extra: Partial<Call> & { timeout?: Bound } = {}): Call => {
    const account = accounts.of(on.account);
    return {
      account,
      progress: account.context.progress,
      warn: account.context.warn,
      resource: resourceFactsOf(on.internal),
      secretInputs: secretInputsOf(on.internal),
      replaceOnChanges: replaceOnChangesOf(on.internal),
      ...extra,
    };
  };
  return {
    async check(olds, news) {
      const n = open(news);
      const o = open(olds);
      const refusal = accounts.refusal(n.account);
      if (refusal !== undefined)
        return { inputs: news, failures: [{ property: ACCOUNT_INPUT, reason: refusal }] };
      const resource = resourceFactsOf(n.internal, o.internal.__autoNamed === true);
      const result = await impl.check(o.plain, n.plain, callOf(n, { resource }));
      const hadOlds = Object.keys(o.plain).length + Object.keys(o.internal).length > 0;
      const internal = checkedInternal(
        hadOlds ? o.internal : undefined,
        n.internal,
        result.autoNamed === true,
      );
      const failures = [...result.failures, ...timeoutFailures(n.internal)];
      return { inputs: withInternal(result.inputs, internal, n.account), failures };
    },

    async diff(id, olds, news) {
      const n = open(news);
      const o = open(olds);
      const secretInputs = [...new Set([...secretInputsOf(o.internal), ...secretInputsOf(n.internal)])];
      // Run with the stored state's account: the one that owns the resource.
      const call = callOf({ ...n, account: o.account }, { secretInputs });
      const result = await impl.diff(id, o.plain, n.plain, call);
      if (o.account === n.account) return result;
      // Another account owns another resource: a replace, the old one deleted with its own key.
      return { ...result, changes: true, replaces: [...(result.replaces ?? []), ACCOUNT_INPUT] };
    },

    async create(inputs) {
      const n = open(inputs);
      const call = callOf(n, { timeout: customTimeoutOf(n.internal, "create") });
      const result = await storing(n, () => impl.create(n.plain, call));
      return { ...result, outs: withInternal(result.outs, n.internal, n.account) };
    },

    async read(id, props) {
      const p = open(props);
      const result = await impl.read(id, p.plain, callOf(p));
      if (result.id === undefined) return result;
      const inputs = result.inputs && withInternal(result.inputs, namingOf(p.internal), p.account);
      return { ...result, props: withInternal(result.props ?? {}, p.internal, p.account), inputs };
    },

    async update(id, olds, news) {
      const n = open(news);
      const o = open(olds);
      const at = { ...n, account: o.account };
      const call = callOf(at, { timeout: customTimeoutOf(n.internal, "update") });
      const result = await storing(at, () => impl.update(id, o.plain, n.plain, call));
      return { ...result, outs: withInternal(result.outs, n.internal, o.account) };
    },

    async delete(id, props) {
      const p = open(props);
      await impl.delete(id, p.plain, callOf(p, { timeout: customTimeoutOf(p.internal, "delete") }));
    },
  };
}

function open(bag: EngineProps | undefined): DynamicBag {
  const { [ACCOUNT_INPUT]: account, ...rest } = bag ?? {};
  const [plain, internal] = splitInternal(rest);
  return { plain, internal, account };
}

/** `props` with what the door keeps beside them: the internal inputs, and the account's name when given. */
function withInternal(props: EngineProps, internal: Internal, account: unknown): EngineProps {
  return { ...props, ...internal, ...(account === undefined ? {} : { [ACCOUNT_INPUT]: account }) };
}

/**
 * Runs `body`; a partial failure it throws keeps what the door keeps too, so the next operation
 * has its internal inputs and uses its account's key.
 */
async function storing<T>(on: DynamicBag, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    throw keptOnPartialFailure(err, (properties) => withInternal(properties, on.internal, on.account));
  }
}
