/**
 * The plugin as one CommonJS file (esbuild): src/provider/native/main.ts and everything it loads,
 * zod and axios included (the protocol's messages are the plugin's own codec and its gRPC its own
 * transport: no grpc-js, no google-protobuf, no generated stubs), so that a single executable
 * (dist.sh) runs it with no `node_modules` beside it.
 *
 *   node -r ts-node/register/transpile-only tools/plugin/bundle.ts OUT_DIR
 *
 * writes OUT_DIR/plugin.js (the bundle as a CommonJS module's function, which sea-main.js runs),
 * OUT_DIR/sea-main.js (the executable's main script, seaMain.ts), OUT_DIR/schema.json
 * (plugin/schema.json; all three assets of the executable) and OUT_DIR/THIRD_PARTY_NOTICES (the
 * license of every package the bundle holds). `@pulumi/pulumi`'s main module (the dynamic door's
 * `pulumi.log`, required at its first use, which the plugin never makes) stays outside: it would
 * bring the whole SDK, npm's installer included. The build fails if anything of the SDK, its gRPC
 * runtime or google-protobuf gets in.
 */
import * as esbuild from "esbuild";
import * as fs from "fs";
import * as path from "path";
import * as vm from "vm";

const REPO = path.resolve(__dirname, "..", "..");
const ENTRY = path.join(REPO, "src", "provider", "native", "main.ts");
const SEA_MAIN = path.join(__dirname, "seaMain.ts");
const SCHEMA = path.join(REPO, "plugin", "schema.json");

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
  /** The bundle, `plugin.js`. */
  file: string;
  /** The executable's main script, `sea-main.js`. */
  main: string;
  /** The schema, `schema.json`. */
  schema: string;
  /** `THIRD_PARTY_NOTICES`. */
  notices: string;
  packages: BundledPackage[];
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

/** Packages the plugin must not hold: the SDK (beyond the name above), gRPC's runtime, google-protobuf. */
const REFUSED = /\/node_modules\/(@pulumi\/pulumi|@grpc\/[^/]+|google-protobuf)\//;

/** Bundles the plugin into `outDir`. */
export async function bundlePlugin(outDir: string): Promise<PluginBundle> {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, "plugin.js");
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    outfile: file,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
    plugins: [sdkOutside, axiosWithoutFetch],
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => path.resolve(REPO, input));
  if (!inputs.some((input) => /[/\\]node_modules[/\\]axios[/\\]lib[/\\]adapters[/\\]fetch\.js$/.test(input)))
    throw new Error("the bundle holds no axios/lib/adapters/fetch.js to stand in for: see axiosWithoutFetch");
  const strays = inputs.filter((input) => REFUSED.test(input));
  if (strays.length > 0)
    throw new Error(
      `the bundle took in the SDK, grpc-js or google-protobuf: ${strays.slice(0, 5).join(", ")}`,
    );
  fs.writeFileSync(file, asModuleFunction(eagerAtStart(asciiOnly(fs.readFileSync(file, "utf8")))));
  const main = path.join(outDir, "sea-main.js");
  await esbuild.build({
    entryPoints: [SEA_MAIN],
    outfile: main,
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    logLevel: "warning",
  });
  const packages = bundledPackages(inputs);
  const schema = path.join(outDir, "schema.json");
  fs.copyFileSync(SCHEMA, schema);
  const notices = path.join(outDir, "THIRD_PARTY_NOTICES");
  fs.writeFileSync(notices, noticesText(packages));
  return { file, main, schema, notices, packages };
}

/**
 * `code` (a CommonJS module) as the function Node wraps a module in, without its `#!` line: the
 * text sea-main.js compiles and calls, and whose code cache it is given.
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

/**
 * The modules the plugin runs before it prints its port: its gRPC (transport/), its codec, the
 * server and what it imports at the top (main.ts loads the provider later).
 */
const LOADED_AT_START =
  /^(src\/provider\/native\/|src\/client\/(errors|settings)\.ts|src\/contract\/(constants|typeTokens)\.ts|tools\/plugin\/)/;

/**
 * The bundle with the wrapper function of each module loaded at start in parentheses, which V8
 * compiles at once (a parenthesized function is assumed to be called soon), so the executable's code
 * cache, made without running the script, holds their bytecode: 9 % fewer instructions at start
 * (callgrind: 369 M against 404 M) than compiling them when the plugin first requires them. Every
 * other module stays lazy. esbuild writes a module as `var require_x = __commonJS({\n  "path"(args) {`
 * ... `\n  }\n});` (`__esm` alike); a wrapper that does not parse once rewritten is left as it was.
 */
export function eagerAtStart(code: string): string {
  const start = /^(var \w+ = __(?:commonJS|esm)\(\{\n {2})"([^"]+)"\(([^)]*)\) \{\n/gm;
  const close = "\n  }\n});";
  let out = "";
  let from = 0;
  for (let match = start.exec(code); match !== null; match = start.exec(code)) {
    const end = code.indexOf(close, start.lastIndex);
    if (match.index < from || end < 0 || !LOADED_AT_START.test(match[2])) continue;
    const body = code.slice(start.lastIndex, end);
    const wrapped = `(function(${match[3]}) {\n${body}\n  })`;
    if (!parses(wrapped)) continue;
    out += `${code.slice(from, match.index)}${match[1]}"${match[2]}": ${wrapped}\n});`;
    from = end + close.length;
  }
  return out + code.slice(from);
}

function parses(expression: string): boolean {
  try {
    new vm.Script(expression);
    return true;
  } catch {
    return false;
  }
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
    (bundle) => process.stdout.write(`${bundle.file}\n`),
    (err: unknown) => {
      process.stderr.write(`bundle: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
