/**
 * Resource options and secret inputs as the provider receives them (resourceOptions.ts on the
 * program side; the TypeScript door's decoding of them, internalInputs.ts, in the plugin; what an
 * implementation does with its call's, operationOptions.ts and checks.ts). The real-engine tests
 * are test/e2e/resourceOptions.test.ts and test/e2e/secrets.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { AbortedError, WaitTimeoutError } from "../../../src/client/core/errors";
import { OperationTimeoutError } from "../../../src/provider/shared/errors";
import { printableFailures, withoutSecretValues } from "../../../src/provider/shared/checks";
import {
  explainTimeout,
  replaceOnChangesFailures,
  tightest,
  withReplaceOnChanges,
} from "../../../src/provider/shared/operationOptions";
import { optionInputs } from "../../../src/provider/dynamic/resourceOptions";
import {
  parseDuration,
  timeoutFailures,
  customTimeoutOf,
} from "../../../src/provider/dynamic/internalInputs";

beforeAll(async () => {
  await pulumi.runtime.setMocks(
    { newResource: (args) => ({ id: "x", state: args.inputs }), call: () => ({}) },
    "project",
    "stack",
    false,
  );
});

function valueOf<T>(value: unknown): Promise<T> {
  return new Promise((resolve) => pulumi.output(value as T).apply((v) => resolve(v as T)));
}

describe("optionInputs (program side)", () => {
  it("optionInputs: no options, no secret → adds nothing (state written before them diffs the same)", () => {
    expect(optionInputs({ region: "East Coast (NY2)", size: 50, name: undefined }, undefined)).toEqual({});
    expect(optionInputs({ size: 50 }, { customTimeouts: {}, replaceOnChanges: [] })).toEqual({});
  });

  it("optionInputs: customTimeouts and replaceOnChanges → internal inputs holding them as written", () => {
    const inputs = optionInputs(
      { size: 50 },
      { customTimeouts: { create: "5s", delete: "" }, replaceOnChanges: ["name"] },
    );
    expect(inputs).toEqual({ __customTimeouts: { create: "5s" }, __replaceOnChanges: ["name"] });
  });

  it("optionInputs: secret Outputs among the inputs → their names, sorted; plain Outputs are not listed", async () => {
    const inputs = optionInputs(
      {
        region: pulumi.secret("SECRET-x"),
        name: pulumi.output("plain"),
        machineIds: [pulumi.secret("ps1")],
        size: 50,
      },
      undefined,
    );
    expect(await valueOf(inputs.__secretInputs)).toEqual(["machineIds", "region"]);
    expect(await valueOf(optionInputs({ name: pulumi.output("plain") }, undefined).__secretInputs)).toBe(
      undefined,
    );
  });

  it("optionInputs: a get (opts.id) → nothing", () => {
    expect(
      optionInputs({ region: pulumi.secret("x") }, { id: "ps1", customTimeouts: { create: "1s" } }),
    ).toEqual({});
  });
});

describe("the options in the plugin: the TypeScript door's decoding, an implementation's use", () => {
  it.each([
    ["5s", 5000],
    ["1h30m", 5_400_000],
    ["1.5m", 90_000],
    ["250ms", 250],
    ["0", 0],
  ])("parseDuration: %s → %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(["5", "5 minutes", "s", "", "-5s", "5d"])("parseDuration: %j → undefined", (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it("customTimeoutOf/tightest: the shorter of customTimeouts and waitTimeoutSeconds wins, named as written", () => {
    const inputs = { __customTimeouts: { create: "5s" } };
    const wait = { ms: 1_200_000, label: "waitTimeoutSeconds (1200)" };
    expect(tightest(customTimeoutOf(inputs, "create"), wait)).toEqual({
      ms: 5000,
      label: "customTimeouts.create (5s)",
    });
    expect(tightest(customTimeoutOf(inputs, "update"), wait)).toBe(wait);
    expect(tightest(customTimeoutOf({ __customTimeouts: { create: "1h" } }, "create"), wait)).toBe(wait);
  });

  it("explainTimeout: a wait that ran out → an OperationTimeoutError naming the bound, the wait's error as cause; another error → as it is", () => {
    const bound = { ms: 5000, label: "customTimeouts.create (5s)" };
    const waited = new WaitTimeoutError("machine ps1 did not become ready within 5000 ms", {
      machineId: "ps1",
      targetState: "ready",
      lastState: "provisioning",
    });
    const ran = explainTimeout(waited, bound);
    expect(ran).toBeInstanceOf(OperationTimeoutError);
    expect(ran).toMatchObject({
      message: "customTimeouts.create (5s) ran out: machine ps1 did not become ready within 5000 ms",
      bound: "customTimeouts.create (5s)",
      timeoutMs: 5000,
      cause: waited,
    });
    const aborted = new AbortedError();
    expect(explainTimeout(aborted, bound)).toMatchObject({ name: "OperationTimeoutError", cause: aborted });
    const other = new Error("boom");
    expect(explainTimeout(other, bound)).toBe(other);
  });

  it("withReplaceOnChanges: a changed input the option names → replaces; unchanged or unnamed → as diffed", () => {
    const diff = { changes: true, replaces: [], deleteBeforeReplace: false };
    const paths = ["name", "tags.env"];
    expect(withReplaceOnChanges(diff, ["name", "state"], paths).replaces).toEqual(["name"]);
    expect(withReplaceOnChanges(diff, ["state"], paths)).toBe(diff);
    expect(withReplaceOnChanges(diff, ["state"], ["*"]).replaces).toEqual(["state"]);
    expect(withReplaceOnChanges(diff, ["name"], [])).toBe(diff);
  });

  it("timeoutFailures, replaceOnChangesFailures: a malformed duration, an unknown input → one failure each, naming the option and what it takes", () => {
    expect(timeoutFailures({ __customTimeouts: { update: "soon", create: "5s" } })).toEqual([
      {
        property: "",
        reason:
          'customTimeouts.update must be a positive duration such as "30s", "5m" or "1h30m" (got "soon")',
      },
    ]);
    expect(replaceOnChangesFailures(["nmae", "name", "*"], ["name", "size"], "Machine")).toEqual([
      {
        property: "",
        reason: 'replaceOnChanges names "nmae", not an input of Machine; its inputs: name, size (or "*")',
      },
    ]);
  });
});

describe("check failures of secret inputs", () => {
  it("printableFailures: a failure on a secret input → no property (the engine would print its value), no value in the reason", () => {
    const inputs = { region: "SECRET-region", name: "ok" };
    const failures = printableFailures(
      [
        { property: "region", reason: 'region must be one of: A, B (got "SECRET-region")' },
        { property: "name", reason: "name is fine but mentions SECRET-region" },
      ],
      inputs,
      ["region"],
    );
    expect(failures).toEqual([
      { property: "", reason: "region must be one of: A, B (got a secret value)" },
      { property: "name", reason: "name is fine but mentions [secret]" },
    ]);
  });

  it("withoutSecretValues: the value as written, JSON-quoted, or cut at 64 characters → masked", () => {
    const long = `SECRET-${"x".repeat(80)}`;
    const inputs = { name: "a\nSECRET", text: long };
    const text = `got "a\\nSECRET" and ${long.slice(0, 64)}… and a\nSECRET`;
    expect(withoutSecretValues(text, ["name", "text"], inputs)).toBe(
      'got "[secret]" and [secret]… and [secret]',
    );
  });
});
