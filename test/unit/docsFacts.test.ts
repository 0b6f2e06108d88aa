/**
 * Facts the documentation states that can drift from the code, checked against it: how many
 * resources there are and their type tokens on both routes, the environment variables the
 * provider reads, the defaults a description states, what the tools need (Linux, the Go version
 * of the modules they build), and build times said in one place only (CONTRIBUTING.md).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DYNAMIC_TYPE_PREFIX, PLUGIN_TOKEN_PREFIX } from "../../src/contract/typeTokens";
import { RESOURCE_KINDS } from "../../src/provider/implementations";

const ROOT = path.resolve(__dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

test("docs/resources/README.md: the number of resources in words, a link to each page, both routes' type tokens", () => {
  const page = read("docs/resources/README.md");
  const counted = [...page.matchAll(/\b(?:[Tt]he|all) (\w+) (?:resources|share)\b/g)].map((m) => m[1]);
  expect(counted.length).toBeGreaterThan(0);
  expect(new Set(counted)).toEqual(new Set([NUMBERS[RESOURCE_KINDS.length]]));
  for (const kind of RESOURCE_KINDS) {
    const file = `${kind[0].toLowerCase()}${kind.slice(1)}.md`;
    expect(page).toContain(`](${file})`);
    expect(fs.existsSync(path.join(ROOT, "docs", "resources", file))).toBe(true);
  }
  expect(page).toContain(`\`${DYNAMIC_TYPE_PREFIX}<Name>\``);
  expect(page).toContain(`\`${PLUGIN_TOKEN_PREFIX}<Name>\``);
});

test("every environment variable the provider's settings read → named on the configuration and plugin pages", () => {
  const sources = ["src/client/core/settings.ts", "src/provider/account/settings.ts"].map(read).join("\n");
  const variables = new Set([...sources.matchAll(/\b(VMAPI_[A-Z_]+)\b/g)].map((m) => m[1]));
  expect([...variables]).toEqual(
    expect.arrayContaining(["VMAPI_API_KEY", "VMAPI_BASE_URL", "VMAPI_POLL_SCALE"]),
  );
  for (const page of ["docs/configuration.md", "docs/plugin.md"]) {
    const text = read(page);
    expect([page, [...variables].filter((v) => !text.includes(v))]).toEqual([page, []]);
  }
});

test("a property whose description says `(default N)` → N is its default in plugin/schema.json (the reference tables' column)", () => {
  type Property = { description?: string; default?: unknown };
  const schema = JSON.parse(read("plugin/schema.json")) as {
    resources: Record<string, { inputProperties?: Record<string, Property> }>;
    functions: Record<string, { inputs?: { properties?: Record<string, Property> } }>;
  };
  const properties = [
    ...Object.entries(schema.resources).flatMap(([t, r]) =>
      Object.entries(r.inputProperties ?? {}).map(([n, p]) => [`${t}.${n}`, p] as const),
    ),
    ...Object.entries(schema.functions).flatMap(([t, f]) =>
      Object.entries(f.inputs?.properties ?? {}).map(([n, p]) => [`${t}.${n}`, p] as const),
    ),
  ];
  const stated = properties.flatMap(([where, p]) => {
    const match = /\(default ([\d,.]+)\)/.exec(p.description ?? "");
    return match ? [[where, Number(match[1].replace(/,/g, "")), p.default] as const] : [];
  });
  expect(stated.length).toBeGreaterThan(0);
  expect(stated.filter(([, said, actual]) => said !== actual)).toEqual([]);
});

test("README: the tools need Linux and the Go version the build modules declare", () => {
  const readme = read("README.md");
  expect(readme).toMatch(/\bLinux\b/);
  const go = /^go (\d+\.\d+)/m.exec(read("tools/pulumi-cli/go.mod"))![1];
  expect(readme).toContain(`Go ${go} or newer`);
});

/** The sentences of a Markdown file or a script's comments (a table's row is one). */
function sentences(text: string): string[] {
  return text
    .split(/\n\s*(?:#\s*)?\n|\n(?=\|)/)
    .flatMap((paragraph) => paragraph.split(/\.\s/))
    .map((sentence) => sentence.replace(/\s+/g, " ").trim());
}

test("build times → given in CONTRIBUTING.md alone: the README, docs/ (but the benchmarks), the scripts and the test setup link to it", () => {
  const scripts = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return scripts(file);
      return entry.name.endsWith(".sh") ? [file] : [];
    });
  const docs = fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md") && f !== "benchmarks.md")
    .map((f) => `docs/${f}`);
  const files = ["README.md", ...docs, ...scripts("tools"), "test/globalSetup.ts"];
  const duration = /\b\d+(?:\.\d+)?(?: to \d+)? ?(?:s|seconds?|min|minutes?)\b/;
  const building = /\b(?:build|builds|built|building|venv)\b(?!-)/i;
  const stated = files.flatMap((file) =>
    sentences(read(file))
      .filter((sentence) => building.test(sentence) && duration.test(sentence))
      .map((sentence) => `${file}: ${sentence}`),
  );
  expect(stated).toEqual([]);
  expect(read("CONTRIBUTING.md")).toMatch(/^## Built once: how long it takes$/m);
});

test("CI and test times → given in CONTRIBUTING.md alone: no echo line of .ci/run, no page of the README or docs/ (but the benchmarks) states one", () => {
  const duration = /\b\d+(?:[.,]\d+)?(?: to \d+)? ?(?:s|seconds?|min|minutes?)\b/;
  const echoes = read(".ci/run")
    .split("\n")
    .filter((line) => /^\s*echo\b/.test(line) && duration.test(line));
  expect(echoes).toEqual([]);
  const testing =
    /\b(?:npm test|npx jest|npm run fuzz|\.ci\/run|the suite|engine runs?|test files?|the tests)\b/i;
  const docs = fs
    .readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md") && f !== "benchmarks.md")
    .map((f) => `docs/${f}`);
  // A quoted message ("35 s late") or a setting's value (`createTimeout` 2s) is no test's time.
  const spoken = / \d+(?:[.,]\d+)?(?: to \d+)? (?:s|seconds?|min|minutes?)\b/;
  const stated = ["README.md", ...docs].flatMap((file) =>
    sentences(read(file))
      .map((sentence) => sentence.replace(/"[^"]*"/g, '""'))
      .filter((sentence) => testing.test(sentence) && spoken.test(sentence))
      .map((sentence) => `${file}: ${sentence}`),
  );
  expect(stated).toEqual([]);
});

test("docs/configuration.md: names exactly the real-engine files .ci/run runs again on Node 24 and on the lowest pair (RERUN)", () => {
  const rerun = /^RERUN=\(([^)]*)\)$/m.exec(read(".ci/run"));
  expect(rerun).not.toBeNull();
  const files = rerun![1]
    .trim()
    .split(/\s+/)
    .map((name) => `test/e2e/${name}.test.ts`);
  const bullet = read("docs/configuration.md")
    .split(/\n(?=- \*\*)/)
    .find((item) => item.startsWith("- **The version-sensitive real-engine files**"));
  expect(bullet).toBeDefined();
  const named = [...bullet!.matchAll(/`(test\/e2e\/\w+\.test\.ts)`/g)].map((m) => m[1]);
  expect(named.sort()).toEqual(files.sort());
});
