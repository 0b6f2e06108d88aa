/**
 * Auto-naming (src/provider/shared/naming.ts): names come from the seed the program sends and the name
 * being replaced, never from chance; a name in the state is kept; the naming inputs never differ
 * from the state's.
 */
import * as pulumi from "@pulumi/pulumi";
import { NameMemory, namingSeed, nextName, withAutoName } from "../../../src/provider/shared/naming";
import { namingInputs } from "../../../src/provider/dynamic/namingInputs";

const SEED = namingSeed(["proj", "dev", "pulumi-nodejs:dynamic/vmapi:Machine", "box"]);
const news = (extra: Record<string, unknown> = {}) => ({
  __resourceName: "box",
  __namingSeed: SEED,
  region: "East Coast (NY2)",
  ...extra,
});

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
  it("create: no olds → the first name of the seed, marked __autoNamed; again → the same", () => {
    const first = withAutoName({}, news(), new NameMemory());
    const again = withAutoName({}, news(), new NameMemory());
    expect(first.name).toBe(nextName("box", SEED));
    expect(first.__autoNamed).toBe(true);
    expect(again).toEqual(first);
  });

  it("declared name → kept as declared, not marked", () => {
    const inputs = withAutoName({}, news({ name: "mine" }), new NameMemory());
    expect(inputs.name).toBe("mine");
    expect(inputs.__autoNamed).toBeUndefined();
  });

  it("alias: olds of another resource name and seed → the old name and the old naming inputs kept", () => {
    const olds = { __resourceName: "old", __namingSeed: "oldseed", __autoNamed: true, name: "old-uusqgx1" };
    const inputs = withAutoName(olds, news(), new NameMemory());
    expect(inputs).toMatchObject({
      name: "old-uusqgx1",
      __autoNamed: true,
      __resourceName: "old",
      __namingSeed: "oldseed",
    });
  });

  it("state written by 0.1.0 (no __namingSeed, random name) → the name kept, no __namingSeed added", () => {
    const olds = {
      __resourceName: "box",
      __autoNamed: true,
      name: "box-x1y2z3q",
      region: "East Coast (NY2)",
    };
    const inputs = withAutoName(olds, news(), new NameMemory());
    expect(inputs.name).toBe("box-x1y2z3q");
    expect("__namingSeed" in inputs).toBe(false);
    expect(inputs.__resourceName).toBe("box");
  });

  it("replacement: check with olds, then check without olds (as the engine does) → the name after the old one, the same on every run", () => {
    const olds = { ...news(), __autoNamed: true, name: "box-x1y2z3q" };
    const run = () => {
      const memory = new NameMemory();
      const kept = withAutoName(olds, news({ region: "Europe (AMS1)" }), memory);
      const replacement = withAutoName({}, news({ region: "Europe (AMS1)" }), memory);
      return { kept: kept.name, replacement: replacement.name };
    };
    const preview = run();
    const up = run();
    expect(preview.kept).toBe("box-x1y2z3q");
    expect(preview.replacement).toBe(nextName("box", SEED, "box-x1y2z3q"));
    expect(preview.replacement).not.toBe("box-x1y2z3q");
    expect(up).toEqual(preview);
  });

  it("replacement: another resource's old name in memory → not used (keyed by seed)", () => {
    const memory = new NameMemory();
    const otherSeed = namingSeed(["proj", "dev", "pulumi-nodejs:dynamic/vmapi:Machine", "other"]);
    withAutoName(
      { __namingSeed: otherSeed, __resourceName: "other", __autoNamed: true, name: "other-1234567" },
      { __namingSeed: otherSeed, __resourceName: "other" },
      memory,
    );
    expect(withAutoName({}, news(), memory).name).toBe(nextName("box", SEED));
  });

  it("declared name removed → an auto-name that no declared name goes into (it may be a secret), the same in the replacement's check", () => {
    const after = (declared: string) => {
      const memory = new NameMemory();
      const withOlds = withAutoName({ ...news(), name: declared }, news(), memory);
      const withoutOlds = withAutoName({}, news(), memory);
      return [withOlds.name, withoutOlds.name];
    };
    expect(after("mine")).toEqual([nextName("box", SEED), nextName("box", SEED)]);
    expect(after("s3cret-name")).toEqual(after("mine"));
  });

  it("declared name equal to the first auto-name, removed → another auto-name (a replacement never takes the old name)", () => {
    const first = nextName("box", SEED);
    const inputs = withAutoName({ ...news(), name: first }, news(), new NameMemory());
    expect(inputs.name).toMatch(/^box-[a-z0-9]{7}$/);
    expect(inputs.name).not.toBe(first);
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
