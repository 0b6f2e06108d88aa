/**
 * The TypeScript door's boundary (src/provider/dynamic/dynamicProvider.ts): what the engine's bags
 * hold beside the user's inputs (the internal `__` inputs, the account's name) never reaches an
 * implementation; its `Call` says what they mean; and what state keeps of them is stored back.
 * The implementation here is a recorder: it sees its arguments and its call. Nothing is sent.
 */
import { accountDigest } from "../../../src/provider/account/account";
import { Accounts } from "../../../src/provider/account/accounts";
import { dynamicProvider } from "../../../src/provider/dynamic/dynamicProvider";
import type { Implementation } from "../../../src/provider/implementations";
import { providerContext } from "../../../src/provider/account/context";
import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import type { Call } from "../../../src/provider/shared/resourceImplementation";
import type { ProviderSettings } from "../../../src/provider/account/settings";

const settings: ProviderSettings = {
  apiKey: "default-key",
  baseUrl: "http://api.example",
  accounts: JSON.stringify({ team: { apiKey: "team-key" } }),
};
const TEAM = accountDigest("http://api.example", "team-key");
const DEFAULT = accountDigest("http://api.example", "default-key");

/** What a class registers beside a Machine's inputs (namingInputs.ts, resourceOptions.ts). */
const INTERNAL = {
  __resourceName: "box",
  __namingSeed: "seed-1",
  __customTimeouts: { create: "5s", delete: "2m" },
  __secretInputs: ["password"],
  __provider: "exports.handler=()=>{}",
};

interface Seen {
  method: string;
  args: unknown[];
  call: Call;
}

/** The door (on `configured`) over an implementation that records each call and answers `answer(method, args)`. */
function recorded(answer: (method: string, args: unknown[]) => unknown = () => ({}), configured = settings) {
  const seen: Seen[] = [];
  const record =
    (method: string) =>
    async (...args: unknown[]) => {
      const call = args.pop() as Call;
      seen.push({ method, args, call });
      return answer(method, args);
    };
  const impl = Object.fromEntries(
    ["check", "diff", "create", "read", "update", "delete"].map((m) => [m, record(m)]),
  ) as unknown as Implementation;
  return { seen, door: dynamicProvider(impl, new Accounts(configured, providerContext())) };
}

/** Every key of the bags an implementation was handed. */
function keysSeen(seen: Seen[]): string[] {
  return seen.flatMap((s) => s.args.flatMap((a) => (typeof a === "object" && a ? Object.keys(a) : [])));
}

describe("dynamicProvider: what an implementation is handed", () => {
  it("check: no `__` input and no `account` reach it; its call says the name, identity, seed, secrets and replaceOnChanges", async () => {
    const { seen, door } = recorded(() => ({ inputs: { name: "box-abc1234" }, failures: [] }));
    const news = { ...INTERNAL, __replaceOnChanges: ["size"], account: "team", size: 50, password: "pw" };
    await door.check({}, news);
    expect(seen[0].args).toEqual([{}, { size: 50, password: "pw" }]);
    expect(seen[0].call).toMatchObject({
      resource: { name: "box", identity: "seed-1", namingSeed: "seed-1", autoNamed: false },
      secretInputs: ["password"],
      replaceOnChanges: ["size"],
    });
    expect(seen[0].call.timeout).toBeUndefined();
    expect(seen[0].call.account.key).toBe(TEAM);
  });

  it("check: the stored name was drawn (olds' `__autoNamed`) → the call says so", async () => {
    const { seen, door } = recorded(() => ({ inputs: {}, failures: [] }));
    await door.check({ ...INTERNAL, __autoNamed: true, name: "box-abc1234" }, { ...INTERNAL });
    expect(seen[0].args[0]).toEqual({ name: "box-abc1234" });
    expect(seen[0].call.resource.autoNamed).toBe(true);
  });

  it("create, update, delete: each operation's own customTimeouts as the call's bound, named as written", async () => {
    const { seen, door } = recorded((method) => (method === "delete" ? undefined : { id: "ps1", outs: {} }));
    await door.create({ ...INTERNAL });
    await door.update("ps1", { ...INTERNAL }, { ...INTERNAL, __customTimeouts: { update: "90s" } });
    await door.delete("ps1", { ...INTERNAL });
    expect(seen.map((s) => s.call.timeout)).toEqual([
      { ms: 5000, label: "customTimeouts.create (5s)" },
      { ms: 90_000, label: "customTimeouts.update (90s)" },
      { ms: 120_000, label: "customTimeouts.delete (2m)" },
    ]);
    expect(keysSeen(seen).filter((k) => k.startsWith("__"))).toEqual([]);
  });

  it("diff: the news' `__autoNamed`, both sides' secret inputs; nothing internal compared", async () => {
    const { seen, door } = recorded(() => ({ changes: false }));
    await door.diff(
      "ps1",
      { ...INTERNAL, name: "n", __secretInputs: ["name"] },
      { ...INTERNAL, __autoNamed: true },
    );
    expect(seen[0].args).toEqual(["ps1", { name: "n" }, {}]);
    expect(seen[0].call.resource.autoNamed).toBe(true);
    expect([...seen[0].call.secretInputs].sort()).toEqual(["name", "password"]);
  });
});

describe("dynamicProvider: what state keeps", () => {
  it("check: the internal inputs answered back, `__autoNamed` as the check drew the name, the account kept", async () => {
    const { door } = recorded(() => ({ inputs: { name: "box-abc1234" }, failures: [], autoNamed: true }));
    const result = await door.check({}, { ...INTERNAL, account: "team" });
    expect(result.inputs).toEqual({ name: "box-abc1234", ...INTERNAL, __autoNamed: true, account: "team" });
  });

  it("check with olds of another name and seed (an alias) → the old naming inputs kept, never a change", async () => {
    const { door } = recorded(() => ({ inputs: {}, failures: [], autoNamed: true }));
    const olds = { __resourceName: "old", __namingSeed: "old-seed", __autoNamed: true, name: "old-1234567" };
    const { inputs } = await door.check(olds, { ...INTERNAL });
    expect(inputs).toMatchObject({ __resourceName: "old", __namingSeed: "old-seed", __autoNamed: true });
  });

  it("check with state written by 0.1.0 (no __namingSeed) → no __namingSeed added; the call's identity the resource name", async () => {
    const { seen, door } = recorded(() => ({ inputs: {}, failures: [] }));
    const olds = { __resourceName: "box", name: "old-state", size: 50 };
    const { inputs } = await door.check(olds, { ...INTERNAL });
    expect("__namingSeed" in inputs).toBe(false);
    expect(inputs.__resourceName).toBe("box");
    expect(inputs).not.toHaveProperty("__autoNamed");
    await door.create({ __resourceName: "box", name: "old-state" });
    expect(seen[1].call.resource).toMatchObject({ name: "box", identity: "box" });
  });

  it("create, update, read: outputs carry the internal inputs and the account; a refresh's inputs the naming ones", async () => {
    const { door } = recorded((method) =>
      method === "read"
        ? { id: "ps1", props: { machineId: "ps1" }, inputs: { size: 50 } }
        : { id: "ps1", outs: { machineId: "ps1" } },
    );
    const stored = { ...INTERNAL, __autoNamed: true, account: "team" };
    expect((await door.create(stored)).outs).toEqual({ machineId: "ps1", ...stored });
    expect((await door.update("ps1", stored, stored)).outs).toEqual({ machineId: "ps1", ...stored });
    const read = await door.read("ps1", stored);
    expect(read.props).toEqual({ machineId: "ps1", ...stored });
    expect(read.inputs).toEqual({
      size: 50,
      __resourceName: "box",
      __namingSeed: "seed-1",
      __autoNamed: true,
      account: "team",
    });
  });

  it("create fails part-way → the partial failure's properties keep the internal inputs and the account", async () => {
    const { door } = recorded(() => {
      throw new ResourceInitError("ps1", { machineId: "ps1" }, new Error("start refused"));
    });
    const error = (await door
      .create({ ...INTERNAL, account: "team" })
      .catch((e: unknown) => e)) as ResourceInitError;
    expect(error.properties).toEqual({ machineId: "ps1", ...INTERNAL, account: "team" });
  });

  it("check: a malformed customTimeouts → a failure naming it as written, after the implementation's", async () => {
    const { door } = recorded(() => ({
      inputs: {},
      failures: [{ property: "size", reason: "size is wrong" }],
    }));
    const { failures } = await door.check({}, { __customTimeouts: { update: "soon" } });
    expect(failures).toEqual([
      { property: "size", reason: "size is wrong" },
      {
        property: "",
        reason:
          'customTimeouts.update must be a positive duration such as "30s", "5m" or "1h30m" (got "soon")',
      },
    ]);
  });
});

describe("dynamicProvider: the account of each operation", () => {
  it("check: account not configured → a failure naming `account` and the configured names, no key, no call", async () => {
    const { seen, door } = recorded();
    const result = await door.check({}, { name: "m", account: "personal" });
    expect(result.failures).toEqual([
      {
        property: "account",
        reason: expect.stringMatching(/^account "personal" is not configured \(configured accounts: team\)/),
      },
    ]);
    expect(JSON.stringify(result)).not.toMatch(/team-key|default-key/);
    expect(seen).toEqual([]);
  });

  it("update, read, delete: the key of the account in the stored state, not of the new inputs", async () => {
    const { seen, door } = recorded(() => ({ id: "m1", outs: {}, props: {}, inputs: {} }));
    await door.update("m1", { account: "team" }, { name: "x" });
    await door.read("m1", { account: "team" });
    await door.delete("m1", { account: "team" });
    expect(seen.map((s) => s.call.account.key)).toEqual([TEAM, TEAM, TEAM]);
  });

  it("no account anywhere → the default key; outs without `account`", async () => {
    const { seen, door } = recorded(() => ({ id: "m1", outs: { name: "m" } }));
    expect(await door.create({ name: "m" })).toEqual({ id: "m1", outs: { name: "m" } });
    expect(seen[0].call.account.key).toBe(DEFAULT);
  });

  it("diff: account changed → a replace on `account`, the diff run with the old account's key", async () => {
    const { seen, door } = recorded(() => ({ changes: false }));
    const diff = await door.diff("m1", { name: "m" }, { name: "m", account: "team" });
    expect(diff).toEqual({ changes: true, replaces: ["account"] });
    expect(seen[0].call.account.key).toBe(DEFAULT);
  });

  it("vmapi:accounts not an object → check fails naming it on `account`; create refuses with it", async () => {
    const { seen, door: bad } = recorded(undefined, { ...settings, accounts: "[1]" });
    const checked = await bad.check({}, { account: "team" });
    expect(checked.failures).toEqual([
      { property: "account", reason: "vmapi:accounts must be an object of accounts, each with an apiKey" },
    ]);
    await expect(bad.create({ account: "team" })).rejects.toThrow(/vmapi:accounts must be an object/);
    expect(seen).toEqual([]);
  });
});
