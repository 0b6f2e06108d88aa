/**
 * The plugin as the single executable (dist.sh) runs it, with no `node_modules` beside it: two
 * CommonJS scripts (esbuild) holding the plugin's modules, zod and axios included (the protocol's
 * messages are the plugin's own codec and its gRPC its own transport: no grpc-js, no
 * google-protobuf, no generated stubs).
 *
 *   node -r ts-node/register/transpile-only tools/plugin/bundle.ts OUT_DIR
 *
 * writes OUT_DIR/start.js and OUT_DIR/provider.js (bundleSnapshotScripts: the executable's main
 * script, which its startup snapshot is made of, and the modules the plugin loads after it),
 * OUT_DIR/schema.json (plugin/schema.json, which start.js reads where the snapshot is made) and
 * OUT_DIR/THIRD_PARTY_NOTICES (the license of every package the two hold). `@pulumi/pulumi`'s
 * main module (the dynamic door's `pulumi.log`, required at its first use, which the plugin never
 * makes) stays outside: it would bring the whole SDK, npm's installer included. The build fails if
 * anything of the SDK, its gRPC runtime or google-protobuf gets in.
 */
import * as esbuild from "esbuild";
import * as fs from "fs";
import * as path from "path";
import { START_MODULE_PREFIX } from "./providerScript";

const REPO = path.resolve(__dirname, "..", "..");
const SCHEMA = path.join(REPO, "plugin", "schema.json");
const SNAPSHOT_MAIN = path.join(__dirname, "snapshotMain.ts");
const PROVIDER_SCRIPT = path.join(__dirname, "providerScript.ts");

/**
 * The modules the plugin requires lazily (src/provider/native/start.ts and server.ts, the
 * converter's and the analyzer's hooks): the host's executable has them, and what only they
 * import, in its provider's script. The build fails when one of them is no longer required.
 */
export const PROVIDER_MODULES = [
  "src/provider/native/nativeProvider.ts",
  "src/provider/account/context.ts",
  "src/provider/account/settings.ts",
  "src/terraform/converterServer.ts",
  "src/policy/analyzerServer.ts",
];

/** One package the bundle holds, for the notices. */
export interface BundledPackage {
  name: string;
  version: string;
  license: string;
  /** The package's folder under node_modules. */
  dir: string;
}

/** What bundlePlugin wrote. */
export interface PluginBundle {
  /** The executable's two scripts (bundleSnapshotScripts). */
  scripts: SnapshotScripts;
  /** The schema, `schema.json`. */
  schema: string;
  /** `THIRD_PARTY_NOTICES`. */
  notices: string;
  packages: BundledPackage[];
}

/**
 * The single executable in two scripts: `start.js`, its main script, run where its startup
 * snapshot is made (snapshotMain.ts and the modules the plugin runs before it answers
 * `GetPluginInfo`), and `provider.js`, the modules the plugin loads at the first request that needs
 * them (PROVIDER_MODULES), an asset compiled with its own code cache (providerScript.ts).
 */
export interface SnapshotScripts {
  start: string;
  provider: string;
  /** The start's modules (their paths in the repository) the provider's script takes from it. */
  shared: string[];
}

/** The SDK's main module stays outside the bundle (see above). */
const sdkOutside: esbuild.Plugin = {
  name: "vmapi-sdk-outside",
  setup(build) {
    build.onResolve({ filter: /^@pulumi\/pulumi$/ }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * axios without its fetch adapter, which the plugin never uses (axios picks its `http` adapter in
 * Node): at load, axios's `fetch.js` asks for `fetch`, `Request` and `Response`, and its `utils.js`
 * for `FormData`, and the first read of any of those globals makes Node load undici (about 110 M
 * instructions, a quarter of the provider's load at the first `Configure`). The bundle takes a
 * `fetch.js` that answers "not supported", as axios's own does where there is no fetch, and a
 * `utils.js` whose FormData check is by shape alone (axios's fallback); the build fails if either
 * text is not where it was (another axios version), rather than bundling undici unnoticed.
 */
const axiosWithoutFetch: esbuild.Plugin = {
  name: "vmapi-axios-without-fetch",
  setup(build) {
    build.onLoad({ filter: /[/\\]node_modules[/\\]axios[/\\]lib[/\\]adapters[/\\]fetch\.js$/ }, () => ({
      contents: "export const getFetch = () => false;\nexport default false;\n",
      loader: "js",
    }));
    build.onLoad({ filter: /[/\\]node_modules[/\\]axios[/\\]lib[/\\]utils\.js$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      const check = "typeof G.FormData !== 'undefined' ? G.FormData : undefined";
      if (!text.includes(check)) throw new Error(`${args.path} no longer holds \`${check}\``);
      return { contents: text.replace(check, "undefined"), loader: "js" };
    });
  },
};

/** zod's table of its locales, which zodEnglishOnly stands in for. */
const ZOD_LOCALES = /[/\\]node_modules[/\\]zod[/\\]v4[/\\]locales[/\\]index\.js$/;

/**
 * zod with its English messages alone: its `locales` namespace re-exports every language's error
 * messages (64 modules, about 400 KB of the provider's script of 1.4 MB), which a bundle keeps and
 * loads, though zod itself takes English (`schemas.js` imports `en.js`) and the plugin never
 * configures another. The bundle's table names English only; the build fails if zod's table no
 * longer names it as it did.
 */
const zodEnglishOnly: esbuild.Plugin = {
  name: "vmapi-zod-english-only",
  setup(build) {
    build.onLoad({ filter: ZOD_LOCALES }, (args) => {
      const english = 'export { default as en } from "./en.js";';
      if (!fs.readFileSync(args.path, "utf8").includes(english))
        throw new Error(`${args.path} no longer holds \`${english}\``);
      return { contents: `${english}\n`, loader: "js" };
    });
  },
};

/** axios's Node FormData class, which axiosWithoutFormData stands in for. */
const FORM_DATA_CLASS =
  /[/\\]node_modules[/\\]axios[/\\]lib[/\\]platform[/\\]node[/\\]classes[/\\]FormData\.js$/;

/**
 * axios without `form-data`, which the plugin never sends (its client sends JSON alone, a script's
 * text included): axios's Node platform imports the package for its `FormData` class, and loading
 * it loads `mime-types` and its database of every media type (about 2,000 entries built at the
 * first `CheckConfig`), `combined-stream` and four more. The bundle's class answers that such
 * bodies are not sent; no body the plugin sends is one (axios tells them by `instanceof`). The
 * build fails if axios's module no longer is the one-line re-export it replaces.
 */
const axiosWithoutFormData: esbuild.Plugin = {
  name: "vmapi-axios-without-form-data",
  setup(build) {
    build.onLoad({ filter: FORM_DATA_CLASS }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      if (!/^import FormData from 'form-data';\s+export default FormData;\s*$/.test(text))
        throw new Error(`${args.path} is no longer axios's re-export of form-data`);
      return {
        contents:
          'export default class FormData {\n  constructor() {\n    throw new Error("pulumi-resource-vmapi sends no multipart/form-data body");\n  }\n}\n',
        loader: "js",
      };
    });
  },
};

/** axios's modules that import `http2`, which axiosLazyHttp2 stands in for. */
const AXIOS_HTTP2_USERS =
  /[/\\]node_modules[/\\]axios[/\\]lib[/\\](adapters[/\\]http|helpers[/\\]Http2Sessions)\.js$/;

/**
 * axios with Node's `http2` loaded at its first use, not with axios: its Node adapter imports the
 * module for requests made with `httpVersion: 2`, which the plugin's client never makes, and
 * loading it (`http2` and its internals) was about 8 M instructions (3 %) of every
 * configuration (docs/benchmarks.md, 2026-12-07). Both modules use `http2` only inside the
 * functions of such a request (`connect`, `constants`); the stand-in loads it there. The build
 * fails if either no longer imports it as it did.
 */
const axiosLazyHttp2: esbuild.Plugin = {
  name: "vmapi-axios-lazy-http2",
  setup(build) {
    build.onLoad({ filter: AXIOS_HTTP2_USERS }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      const eager = "import http2 from 'http2';";
      if (text.split(eager).length !== 2) throw new Error(`${args.path} no longer holds \`${eager}\` once`);
      const lazy =
        "const http2 = { connect: (...args) => require('http2').connect(...args), get constants() { return require('http2').constants; } };";
      return { contents: text.replace(eager, lazy), loader: "js" };
    });
  },
};

/** axios's fetch adapter, which axiosWithoutFetch stands in for. */
const FETCH_ADAPTER = /[/\\]node_modules[/\\]axios[/\\]lib[/\\]adapters[/\\]fetch\.js$/;

/** Packages the plugin must not hold: the SDK (beyond the name above), gRPC's runtime, google-protobuf. */
const REFUSED = /\/node_modules\/(@pulumi\/pulumi|@grpc\/[^/]+|google-protobuf)\//;

/** Bundles the plugin into `outDir`. */
export async function bundlePlugin(outDir: string): Promise<PluginBundle> {
  fs.mkdirSync(outDir, { recursive: true });
  const { scripts, inputs } = await bundleSnapshotScripts(outDir);
  const packages = bundledPackages(inputs);
  const schema = path.join(outDir, "schema.json");
  fs.copyFileSync(SCHEMA, schema);
  const notices = path.join(outDir, "THIRD_PARTY_NOTICES");
  fs.writeFileSync(notices, noticesText(packages));
  return { scripts, schema, notices, packages };
}

/** The options both scripts are built with. */
const SCRIPT_OPTIONS = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "cjs",
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
  absWorkingDir: REPO,
} as const satisfies esbuild.BuildOptions;

/** Marks what `build.resolve` is asked from inside a plugin, which the plugin lets through. */
const INNER = { vmapiInner: true };

/**
 * A plugin whose `claim` sees each relative import's file (its path in the repository) and may
 * answer for it.
 */
function claimFiles(
  name: string,
  claim: (file: string) => esbuild.OnResolveResult | undefined,
): esbuild.Plugin {
  return {
    name,
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData === INNER) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: INNER,
        });
        if (resolved.errors.length > 0 || resolved.external) return undefined;
        return claim(path.relative(REPO, resolved.path).split(path.sep).join("/"));
      });
    },
  };
}

/** The repository's own files among a build's inputs (their paths in it). */
function ownFiles(metafile: esbuild.Metafile): string[] {
  return Object.keys(metafile.inputs).filter((input) => /^(src|tools)\//.test(input));
}

/**
 * Writes `start.js` and `provider.js` (SnapshotScripts) into `outDir`; also gives the inputs of both
 * (absolute paths), for the notices.
 */
export async function bundleSnapshotScripts(
  outDir: string,
): Promise<{ scripts: SnapshotScripts; inputs: string[] }> {
  // The start: a lazily required provider module is the provider script's (providerModule).
  const reached = new Set<string>();
  const providerOutside = claimFiles("vmapi-provider-outside", (file) => {
    if (!PROVIDER_MODULES.includes(file)) return undefined;
    reached.add(file);
    return { path: file, namespace: "vmapi-provider" };
  });
  const providerStub: esbuild.Plugin = {
    name: "vmapi-provider-stub",
    setup(build) {
      build.onLoad({ filter: /.*/, namespace: "vmapi-provider" }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(PROVIDER_SCRIPT)}).providerModule(${JSON.stringify(args.path)});\n`,
        loader: "js",
        resolveDir: REPO,
      }));
    },
  };
  const startPlugins = [providerOutside, providerStub];
  const probe = await esbuild.build({
    ...SCRIPT_OPTIONS,
    entryPoints: [SNAPSHOT_MAIN],
    write: false,
    outfile: path.join(outDir, "start.js"),
    plugins: startPlugins,
  });
  const missing = PROVIDER_MODULES.filter((file) => !reached.has(file));
  if (missing.length > 0)
    throw new Error(`the start no longer requires ${missing.join(", ")}: see PROVIDER_MODULES`);
  const startFiles = ownFiles(probe.metafile);
  const startPackages = Object.keys(probe.metafile.inputs).filter((input) => input.includes("node_modules/"));
  if (startPackages.length > 0)
    throw new Error(
      `the start's script holds packages, which belong in the provider's: ${startPackages.slice(0, 5).join(", ")}`,
    );

  // The provider: its modules as a table, a start's module asked of the start (providerRequire).
  const shared = new Set<string>();
  const providerEntry = `module.exports = {\n${PROVIDER_MODULES.map(
    (file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),\n`,
  ).join("")}};\n`;
  const provider = path.join(outDir, "provider.js");
  const providerResult = await esbuild.build({
    ...SCRIPT_OPTIONS,
    stdin: { contents: providerEntry, resolveDir: REPO, sourcefile: "vmapi-provider-entry.js", loader: "js" },
    outfile: provider,
    plugins: [
      claimFiles("vmapi-start-outside", (file) => {
        if (!startFiles.includes(file)) return undefined;
        shared.add(file);
        return { path: `${START_MODULE_PREFIX}${file}`, external: true };
      }),
      sdkOutside,
      axiosWithoutFetch,
      axiosWithoutFormData,
      axiosLazyHttp2,
      zodEnglishOnly,
    ],
  });
  const providerInputs = Object.keys(providerResult.metafile.inputs).map((input) =>
    path.resolve(REPO, input),
  );
  checkInputs(providerInputs);
  // Each stand-in replaces a file the script holds: one that no longer does is a package changed.
  const standIns: Array<[RegExp, string]> = [
    [FETCH_ADAPTER, "axiosWithoutFetch"],
    [FORM_DATA_CLASS, "axiosWithoutFormData"],
    [AXIOS_HTTP2_USERS, "axiosLazyHttp2"],
    [ZOD_LOCALES, "zodEnglishOnly"],
  ];
  for (const [file, standIn] of standIns)
    if (!providerInputs.some((input) => file.test(input)))
      throw new Error(`the provider's script holds no ${file.source} to stand in for: see ${standIn}`);
  fs.writeFileSync(provider, asModuleFunction(asciiOnly(fs.readFileSync(provider, "utf8"))));

  // The start again, with a table of the modules the provider's script takes from it.
  const startEntry = [
    `require(${JSON.stringify(PROVIDER_SCRIPT)}).shareStartModules({`,
    ...[...shared]
      .sort()
      .map((file) => `  ${JSON.stringify(file)}: () => require(${JSON.stringify(`./${file}`)}),`),
    "});",
    `require(${JSON.stringify(SNAPSHOT_MAIN)});`,
    "",
  ].join("\n");
  const start = path.join(outDir, "start.js");
  const startResult = await esbuild.build({
    ...SCRIPT_OPTIONS,
    stdin: { contents: startEntry, resolveDir: REPO, sourcefile: "vmapi-start-entry.js", loader: "js" },
    outfile: start,
    plugins: startPlugins,
  });
  const startInputs = Object.keys(startResult.metafile.inputs).map((input) => path.resolve(REPO, input));
  checkInputs(startInputs);
  // One of each module: none is in both scripts (a class checked with instanceof, a module's state).
  const twice = providerInputs.filter((input) => startInputs.includes(input));
  if (twice.length > 0) throw new Error(`both scripts hold ${twice.slice(0, 5).join(", ")}`);
  fs.writeFileSync(start, asciiOnly(fs.readFileSync(start, "utf8")));
  return {
    scripts: { start, provider, shared: [...shared].sort() },
    inputs: [...startInputs, ...providerInputs],
  };
}

/** Fails when a build took in the SDK, grpc-js or google-protobuf. */
function checkInputs(inputs: string[]): void {
  const strays = inputs.filter((input) => REFUSED.test(input));
  if (strays.length > 0)
    throw new Error(
      `the bundle took in the SDK, grpc-js or google-protobuf: ${strays.slice(0, 5).join(", ")}`,
    );
}

/**
 * `code` (a CommonJS module) as the function Node wraps a module in, without its `#!` line: the
 * provider's script as providerScript.ts compiles and calls it, with its code cache.
 */
export function asModuleFunction(code: string): string {
  const body = code.startsWith("#!") ? code.slice(code.indexOf("\n") + 1) : code;
  return `(function (exports, require, module, __filename, __dirname) {\n${body}\n})`;
}

/**
 * `code` with every character outside ASCII written as a `\uXXXX` escape (per UTF-16 unit), which
 * means the same in a string, a template, a regular expression, an identifier or a comment. esbuild
 * escapes strings but leaves comments and regular expressions alone (zod's `µs`, comments of
 * follow-redirects), and one such character makes V8 hold the whole 3 MB script as two-byte text:
 * decoding it and scanning the lazily compiled functions cost about 5 % of the executable's start
 * (20 M instructions of 420 M, callgrind).
 */
export function asciiOnly(code: string): string {
  return code.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The packages (by their folder under node_modules) that the bundle's inputs come from. */
function bundledPackages(inputs: string[]): BundledPackage[] {
  const dirs = new Set<string>();
  for (const input of inputs) {
    const match = /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) dirs.add(match[1]);
  }
  return [...dirs]
    .map((dir) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name: string;
        version: string;
        license?: string;
      };
      return {
        name: manifest.name,
        version: manifest.version,
        license: manifest.license ?? "see the package",
        dir,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** Each package's name, version, license and license text, as its own folder has them. */
function noticesText(packages: BundledPackage[]): string {
  const header =
    "pulumi-resource-vmapi is a Node.js single executable (Node.js's license: LICENSE.node) holding\n" +
    "the code of the following packages besides its own.\n";
  const sections = packages.map((pkg) => {
    const licenseFile = fs.readdirSync(pkg.dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
    const text = licenseFile ? fs.readFileSync(path.join(pkg.dir, licenseFile), "utf8").trim() : "";
    return `${"-".repeat(78)}\n${pkg.name} ${pkg.version} (${pkg.license})\n\n${text}\n`;
  });
  return [header, ...sections].join("\n");
}

if (require.main === module) {
  const outDir = process.argv[2];
  if (!outDir) {
    process.stderr.write("usage: bundle.ts OUT_DIR\n");
    process.exit(2);
  }
  bundlePlugin(path.resolve(outDir)).then(
    (bundle) => process.stdout.write(`${bundle.scripts.start}\n`),
    (err: unknown) => {
      process.stderr.write(`bundle: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
