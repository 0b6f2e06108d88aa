/**
 * The plugin's scripts are written in ASCII (tools/plugin/bundle.ts), so that V8 holds the single
 * executable's scripts as one-byte text: the escapes must mean what the characters meant, in every
 * place a character can stand in code. The provider's script runs as the function Node wraps a
 * module in (asModuleFunction).
 */
import { asciiOnly, asModuleFunction } from "../../../tools/plugin/bundle";

/** Evaluates a JavaScript expression. */
function evaluate(expression: string): unknown {
  return new Function(`return (${expression});`)();
}

describe("asciiOnly", () => {
  const samples: Array<[string, string]> = [
    ["a string", `"≤ 1.1 × the no-op — 5 µs"`],
    ["a template", "`${1 + 1} à ${'é'}`"],
    ["a regular expression", `/(ns|us|µs|ms)/.exec("12µs")?.[1]`],
    ["a unicode regular expression with an astral character", `/^😀+$/u.test("😀😀")`],
    ["a comment beside code", `/* café — [\u2026] */ "ok"`],
    ["an astral character in a string", `"😀".length`],
  ];

  it.each(samples)("%s: escaped → ASCII only, and evaluates as the original", (_, code) => {
    const escaped = asciiOnly(code);
    expect(escaped).not.toMatch(/[\u0080-\uffff]/);
    expect(evaluate(escaped)).toEqual(evaluate(code));
  });
});

describe("asModuleFunction", () => {
  it("a module with a #! line → a function of Node's module arguments that runs it, without the #! line", () => {
    const code =
      '#!/usr/bin/env node\n"use strict";\nmodule.exports = { dir: __dirname, two: require("two") };';
    const wrapped = asModuleFunction(code);
    expect(wrapped).not.toContain("#!");
    const run = evaluate(wrapped) as (...args: unknown[]) => void;
    const mod = { exports: {} };
    run(mod.exports, (id: string) => (id === "two" ? 2 : undefined), mod, "/x/plugin.js", "/x");
    expect(mod.exports).toEqual({ dir: "/x", two: 2 });
  });
});
