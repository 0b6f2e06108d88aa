/**
 * The plugin's bundle is written in ASCII (tools/plugin/bundle.ts), so that V8 holds the single
 * executable's script as one-byte text: the escapes must mean what the characters meant, in every
 * place a character can stand in code. The modules it loads at start are compiled at once (their
 * wrappers in parentheses), and the bundle must run as before. The executable's main script runs the
 * bundle as the function Node wraps a module in (asModuleFunction).
 */
import { asciiOnly, asModuleFunction, eagerAtStart } from "../../../tools/plugin/bundle";

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

describe("eagerAtStart", () => {
  // Two modules as esbuild writes them: one the plugin loads at start, one it loads later.
  const bundle = [
    "var __commonJS = (cb, mod) => () => (mod || cb[Object.keys(cb)[0]]((mod = { exports: {} }).exports, mod), mod.exports);",
    "var require_server = __commonJS({",
    '  "src/provider/native/transport/grpc.ts"(exports2, module2) {',
    '    module2.exports = { name: "server", nested: () => { return 1; } };',
    "  }",
    "});",
    "var require_zod = __commonJS({",
    '  "node_modules/zod/index.js"(exports2) {',
    '    exports2.name = "zod";',
    "  }",
    "});",
    "return [require_server().name, require_server().nested(), require_zod().name];",
  ].join("\n");

  it("a module loaded at start → its wrapper in parentheses; a module loaded later → as it was; the bundle → the same values", () => {
    const eager = eagerAtStart(bundle);
    expect(eager).toContain('"src/provider/native/transport/grpc.ts": (function(exports2, module2) {');
    expect(eager).toContain('"node_modules/zod/index.js"(exports2) {');
    expect(new Function(eager)()).toEqual(new Function(bundle)());
  });

  it("a wrapper that would not parse once rewritten → left as it was", () => {
    const broken = bundle.replace("return 1; }", "return 1; }\n  }\n});");
    expect(eagerAtStart(broken)).toBe(broken);
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
