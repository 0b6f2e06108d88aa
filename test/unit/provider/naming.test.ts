/**
 * Auto-naming (src/provider/shared/naming.ts): names come from the call's naming seed and the
 * name being replaced, never from chance; a name in the state is kept. What the TypeScript door
 * keeps of it in state (the naming inputs never differing from the state's) is
 * test/unit/provider/dynamicProvider.test.ts's.
 */
import * as pulumi from "@pulumi/pulumi";
import { nextName, withAutoName } from "../../../src/provider/shared/naming";
import { namingSeed } from "../../../src/contract/unfinishedCreates";
import { namingInputs } from "../../../src/provider/dynamic/namingInputs";
import { providerContext } from "../../../src/provider/account/context";
import type { Call } from "../../../src/provider/shared/resourceImplementation";
import { callOn } from "../../kit/providers";

const SEED = namingSeed(["proj", "dev", "pulumi-nodejs:dynamic/vmapi:Machine", "box"]);
const news = (extra: Record<string, unknown> = {}) => ({ region: "East Coast (NY2)", ...extra });

/**
 * The call of a resource named `name` of identity `identity` (its naming seed too, as on the
 * TypeScript door) whose stored name is an auto-name when `autoNamed`, in `context` (one process).
 */
function callOf(context = providerContext(), autoNamed = false, name = "box", identity = SEED): Call {
  return callOn(context, { resource: { name, identity, namingSeed: identity, autoNamed } });
}

describe("nextName", () => {
  it("nextName: same seed and previous name → the same name, `<resource name>-<7 of a-z0-9>`", () => {
    expect(nextName("box", SEED)).toBe(nextName("box", SEED));
    expect(nextName("box", SEED, "box-aaaaaaa")).toBe(nextName("box", SEED, "box-aaaaaaa"));
    expect(nextName("box", SEED)).toMatch(/^box-[a-z0-9]{7}$/);
  });

  it("nextName: another stack's seed, or another previous name → another name", () => {
    const otherStack = namingSeed(["proj", "prod", "pulumi-nodejs:dynamic/vmapi:Machine", "box"]);
    expect(nextName("box", otherStack)).not.toBe(nextName("box", SEED));
    const first = nextName("box", SEED);
    expect(nextName("box", SEED, first)).not.toBe(first);
  });

  it("nextName: 1,000 successive replacements → 1,000 distinct names", () => {
    const names = [nextName("box", SEED)];
    for (let i = 0; i < 999; i++) names.push(nextName("box", SEED, names[names.length - 1]));
    expect(new Set(names).size).toBe(1000);
  });
});

describe("namingSeed", () => {
  it("namingSeed: project, stack, type, name or parent differ → different seeds; same parts → same seed", () => {
    const base = ["proj", "dev", "t", "box"];
    const variants = [
      ["proj2", "dev", "t", "box"],
      ["proj", "dev2", "t", "box"],
      ["proj", "dev", "t2", "box"],
      ["proj", "dev", "t", "box2"],
      [...base, "urn:pulumi:dev::proj::my:Component::a"],
      // No separator ambiguity: "a"+"b" and "ab" must differ.
      ["pro", "jdev", "t", "box"],
    ];
    expect(namingSeed(base)).toBe(namingSeed([...base]));
    expect(new Set([namingSeed(base), ...variants.map(namingSeed)]).size).toBe(variants.length + 1);
    expect(namingSeed(base)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe("withAutoName", () => {
  it("create: no olds → the first name of the seed, marked auto-named; again → the same", () => {
    const first = withAutoName({}, news(), callOf());
    const again = withAutoName({}, news(), callOf());
    expect(first.inputs.name).toBe(nextName("box", SEED));
    expect(first.autoNamed).toBe(true);
    expect(again).toEqual(first);
  });

  it("declared name → kept as declared, not marked", () => {
    const named = withAutoName({}, news({ name: "mine" }), callOf());
    expect(named).toEqual({ inputs: news({ name: "mine" }), autoNamed: false });
  });

  it("an auto-name in the state (another resource name and seed: an alias, or state written by 0.1.0) → kept", () => {
    const named = withAutoName({ name: "old-uusqgx1" }, news(), callOf(providerContext(), true));
    expect(named).toEqual({ inputs: news({ name: "old-uusqgx1" }), autoNamed: true });
  });

  it("the plugin's call: the engine's randomSeed → the name drawn from it, not from the identity", () => {
    const call = callOn(providerContext(), {
      resource: { name: "box", identity: SEED, namingSeed: "0102ff", autoNamed: false },
    });
    expect(withAutoName({}, news(), call).inputs.name).toBe(nextName("box", "0102ff"));
    expect(nextName("box", "0102ff")).not.toBe(nextName("box", SEED));
  });

  it("replacement: check with olds, then check without olds (as the engine does) → the name after the old one, the same on every run", () => {
    const run = () => {
      const process = providerContext();
      const kept = withAutoName(
        { name: "box-x1y2z3q" },
        news({ region: "Europe (AMS1)" }),
        callOf(process, true),
      );
      const replacement = withAutoName({}, news({ region: "Europe (AMS1)" }), callOf(process));
      return { kept: kept.inputs.name, replacement: replacement.inputs.name };
    };
    const preview = run();
    const up = run();
    expect(preview.kept).toBe("box-x1y2z3q");
    expect(preview.replacement).toBe(nextName("box", SEED, "box-x1y2z3q"));
    expect(preview.replacement).not.toBe("box-x1y2z3q");
    expect(up).toEqual(preview);
  });

  it("replacement: another resource's old name in memory → not used (keyed by identity)", () => {
    const process = providerContext();
    const otherSeed = namingSeed(["proj", "dev", "pulumi-nodejs:dynamic/vmapi:Machine", "other"]);
    withAutoName({ name: "other-1234567" }, {}, callOf(process, true, "other", otherSeed));
    expect(withAutoName({}, news(), callOf(process)).inputs.name).toBe(nextName("box", SEED));
  });

  it("declared name removed → an auto-name that no declared name goes into (it may be a secret), the same in the replacement's check", () => {
    const after = (declared: string) => {
      const process = providerContext();
      const withOlds = withAutoName(news({ name: declared }), news(), callOf(process));
      const withoutOlds = withAutoName({}, news(), callOf(process));
      return [withOlds.inputs.name, withoutOlds.inputs.name];
    };
    expect(after("mine")).toEqual([nextName("box", SEED), nextName("box", SEED)]);
    expect(after("s3cret-name")).toEqual(after("mine"));
  });

  it("declared name equal to the first auto-name, removed → another auto-name (a replacement never takes the old name)", () => {
    const first = nextName("box", SEED);
    const { inputs } = withAutoName(news({ name: first }), news(), callOf());
    expect(inputs.name).toMatch(/^box-[a-z0-9]{7}$/);
    expect(inputs.name).not.toBe(first);
  });

  it("a resource the call names not (a program of another copy of the package) → no name drawn", () => {
    const call = callOn(providerContext());
    expect(withAutoName({}, news(), call)).toEqual({ inputs: news(), autoNamed: false });
  });
});

describe("namingInputs (program side)", () => {
  beforeAll(() =>
    pulumi.runtime.setMocks(
      { newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: () => ({}) },
      "proj",
      "dev",
      false,
    ),
  );

  it("namingInputs: no parent → the seed of project, stack, type and name", () => {
    const inputs = namingInputs("box", "pulumi-nodejs:dynamic/vmapi:Machine", undefined);
    expect(inputs).toEqual({ __resourceName: "box", __namingSeed: SEED });
  });

  it("namingInputs: a parent → its URN is part of the seed", async () => {
    const parent = new pulumi.ComponentResource("my:Component", "a");
    const inputs = namingInputs("box", "pulumi-nodejs:dynamic/vmapi:Machine", { parent });
    const seed = await new Promise<string>((resolve) => pulumi.output(inputs.__namingSeed).apply(resolve));
    const parentUrn = await new Promise<string>((resolve) => parent.urn.apply(resolve));
    expect(seed).toBe(namingSeed(["proj", "dev", "pulumi-nodejs:dynamic/vmapi:Machine", "box", parentUrn]));
    expect(seed).not.toBe(SEED);
  });
});
