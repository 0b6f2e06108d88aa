/**
 * Property values between the engine and the plugin (src/provider/native/wireValues.ts): secrets
 * unwrapped at any depth and remembered by top-level key, marked again on the way back, and
 * nothing the protocol's Struct cannot carry.
 */
import { UNKNOWN } from "../../../../src/provider/shared/unknown";
import { fromWire, toWire } from "../../../../src/provider/native/wireValues";
import { openWire } from "../../../../src/provider/native/pluginBags";

const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SIG, value });

test("fromWire: secrets at the top, inside objects and arrays, and inside each other → plain values; their top-level keys remembered", () => {
  const { props, secretKeys } = fromWire({
    name: "box",
    apiKey: secret("k"),
    tags: [secret("a"), "b"],
    nested: { deep: { token: secret(secret("t")) } },
  });
  expect(props).toEqual({ name: "box", apiKey: "k", tags: ["a", "b"], nested: { deep: { token: "t" } } });
  expect([...secretKeys].sort()).toEqual(["apiKey", "nested", "tags"]);
});

test("fromWire: the bag it is given is left as it was, a secret's siblings kept beside its plain value", () => {
  const events = [{ name: "create", state: "done" }];
  const wire = { events, nested: { keep: [1, 2], token: secret("t") }, list: [{ a: 1 }, secret("s")] };
  const given = JSON.parse(JSON.stringify(wire)) as unknown;
  const { props } = fromWire(wire);
  expect(props).toEqual({ events, nested: { keep: [1, 2], token: "t" }, list: [{ a: 1 }, "s"] });
  expect(wire).toEqual(given);
});

test("fromWire: no properties (the engine sends none) → empty, nothing secret", () => {
  expect(fromWire(undefined)).toEqual({ props: {}, secretKeys: new Set() });
});

test("fromWire: a preview's unknown value → passed on as the unknown sentinel", () => {
  expect(fromWire({ machineId: UNKNOWN }).props).toEqual({ machineId: UNKNOWN });
});

test("toWire: the secret keys marked, others plain, undefined values left out (a Struct cannot carry them)", () => {
  expect(
    toWire({ name: "box", scriptText: "echo", gone: undefined, size: 50 }, ["scriptText", "absent"]),
  ).toEqual({
    name: "box",
    scriptText: secret("echo"),
    size: 50,
  });
});

test("toWire then fromWire → the same values and the same secret keys", () => {
  const props = { a: 1, b: { c: [1, 2] }, d: "x" };
  const back = fromWire(toWire(props, ["b", "d"]));
  expect(back.props).toEqual(props);
  expect([...back.secretKeys].sort()).toEqual(["b", "d"]);
});

test("openWire: the plugin's `__` keys left out of the values and of the secret keys; whether the name was drawn read, secret or not", () => {
  const bag = openWire({
    name: "box-1a2b3c4",
    apiKey: secret("k"),
    __autoNamed: true,
    __namingSeed: secret("s"),
    __resourceName: "box",
  });
  expect(bag).toEqual({
    plain: { name: "box-1a2b3c4", apiKey: "k" },
    secretKeys: ["apiKey"],
    autoNamed: true,
  });
  expect(openWire({ name: "box", __autoNamed: secret(true) }).autoNamed).toBe(true);
  expect(openWire({ name: "box", __autoNamed: false }).autoNamed).toBe(false);
  expect(openWire({})).toEqual({ plain: {}, secretKeys: [], autoNamed: false });
});
