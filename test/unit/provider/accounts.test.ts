/**
 * Named accounts (src/provider/account/namedAccounts.ts): which key each operation uses, and what the engine
 * stores. The implementation is a recorder: it sees the arguments and the key it was given.
 */
import { ResourceInitError } from "../../../src/provider/shared/partialFailure";
import { withAccount } from "../../../src/provider/account/namedAccounts";
import type { ProviderSettings } from "../../../src/provider/shared/settings";

const settings: ProviderSettings = {
  apiKey: "default-key",
  baseUrl: "http://api.example",
  accounts: JSON.stringify({
    team: { apiKey: "team-key" },
    eu: { apiKey: "eu-key", baseUrl: "http://eu.example" },
  }),
};

/** An implementation that returns what it was called with. */
function recorder(answer: (args: unknown[]) => unknown = () => ({})) {
  const calls: Array<{ args: unknown[]; key?: string; baseUrl?: string }> = [];
  const invoke = async (args: unknown[], s: ProviderSettings) => {
    calls.push({ args, key: s.apiKey, baseUrl: s.baseUrl });
    return answer(args);
  };
  return { calls, invoke };
}

describe("withAccount", () => {
  it("check: account not configured → a failure naming `account` and the configured names, no key, no call", async () => {
    const { calls, invoke } = recorder();
    const result = await withAccount("check", [{}, { name: "m", account: "personal" }], settings, invoke);
    expect(result).toMatchObject({ failures: [{ property: "account" }] });
    const reason = JSON.stringify(result);
    expect(reason).toMatch(/account \\"personal\\" is not configured \(configured accounts: team, eu\)/);
    expect(reason).not.toMatch(/team-key|eu-key|default-key/);
    expect(calls).toEqual([]);
  });

  it("check and create: the implementation never sees `account`; it runs with that account's key; outs keep it", async () => {
    const { calls, invoke } = recorder((args) => ({ id: "m1", outs: { ...(args[0] as object), name: "m" } }));
    const created = await withAccount("create", [{ name: "m", account: "eu" }], settings, invoke);
    expect(calls).toEqual([{ args: [{ name: "m" }], key: "eu-key", baseUrl: "http://eu.example" }]);
    expect(created).toEqual({ id: "m1", outs: { name: "m", account: "eu" } });
  });

  it("update, read, delete: the key of the account in the stored state, not of the new inputs", async () => {
    const { calls, invoke } = recorder((args) => ({ id: "m1", outs: {}, props: args[1], inputs: {} }));
    await withAccount(
      "update",
      ["m1", { account: "team" }, { account: "team", name: "x" }],
      settings,
      invoke,
    );
    await withAccount("read", ["m1", { account: "team" }], settings, invoke);
    await withAccount("delete", ["m1", { account: "team" }], settings, invoke);
    expect(calls.map((c) => c.key)).toEqual(["team-key", "team-key", "team-key"]);
    expect(calls.map((c) => c.args)).toEqual([
      ["m1", {}, { name: "x" }],
      ["m1", {}],
      ["m1", {}],
    ]);
  });

  it("no account anywhere → the default key, the arguments untouched", async () => {
    const { calls, invoke } = recorder(() => ({ id: "m1", outs: { name: "m" } }));
    expect(await withAccount("create", [{ name: "m" }], settings, invoke)).toEqual({
      id: "m1",
      outs: { name: "m" },
    });
    expect(calls[0].key).toBe("default-key");
  });

  it("diff: account changed → a replace on `account`, the diff run with the old account's key", async () => {
    const { calls, invoke } = recorder(() => ({ changes: false }));
    const diff = await withAccount(
      "diff",
      ["m1", { name: "m" }, { name: "m", account: "team" }],
      settings,
      invoke,
    );
    expect(diff).toEqual({ changes: true, replaces: ["account"] });
    expect(calls[0].key).toBe("default-key");
  });

  it("create fails part-way → the partial failure's properties keep the account (the next up uses its key)", async () => {
    const failing = async () => {
      throw new ResourceInitError("m1", { name: "m" }, new Error("start refused"));
    };
    const error = (await withAccount("create", [{ name: "m", account: "team" }], settings, failing).catch(
      (e: unknown) => e,
    )) as ResourceInitError;
    expect(error.properties).toEqual({ name: "m", account: "team" });
  });

  it("vmapi:accounts not an object → a configuration error naming vmapi:accounts", async () => {
    const { invoke } = recorder();
    await expect(
      withAccount("create", [{ account: "team" }], { ...settings, accounts: "[1]" }, invoke),
    ).rejects.toThrow(/vmapi:accounts must be an object/);
  });
});
