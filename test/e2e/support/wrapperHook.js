// Loaded with `node -r` before the wrapper (tools/pulumi/main.ts) in the real-engine tests, in
// place of `ts-node/register/transpile-only`: the wrapper's own modules (tools/) are compiled by
// esbuild once and kept, by path and modification time, in a cache outside the clone, so each of
// the suite's many CLI runs (stack init, config, export ...) starts in a fraction of the time
// ts-node takes to compile them again. Anything else in TypeScript that the wrapper loads (the
// program it hosts) is compiled by ts-node, loaded only then, as `npm run pulumi` does.
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

const TOOLS = path.resolve(__dirname, "..", "..", "..", "tools") + path.sep;
const CACHE = path.join(os.tmpdir(), `vmapi-wrapper-js-${process.getuid?.() ?? 0}`);

/** The wrapper module `filename` compiled to CommonJS, from the cache or by esbuild. */
function compiledTool(filename) {
  const stat = fs.statSync(filename);
  const key = crypto.createHash("sha1").update(`${filename}\0${stat.mtimeMs}\0${stat.size}`).digest("hex");
  const cached = path.join(CACHE, `${key}.js`);
  try {
    return fs.readFileSync(cached, "utf8");
  } catch {
    const { code } = require("esbuild").transformSync(fs.readFileSync(filename, "utf8"), {
      loader: "ts",
      format: "cjs",
      target: "node22",
      sourcefile: filename,
      sourcemap: "inline",
    });
    fs.mkdirSync(CACHE, { recursive: true });
    const partial = `${cached}.${process.pid}`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, cached);
    return code;
  }
}

let tsNode;
function loadTypeScript(module, filename) {
  if (filename.startsWith(TOOLS)) return module._compile(compiledTool(filename), filename);
  if (tsNode === undefined) {
    // ts-node falls back to the handler it finds for files it ignores: the plain .js one, not this.
    delete require.extensions[".ts"];
    require("ts-node").register({ transpileOnly: true });
    tsNode = require.extensions[".ts"];
    require.extensions[".ts"] = loadTypeScript;
  }
  return tsNode(module, filename);
}
require.extensions[".ts"] = loadTypeScript;
