/**
 * The console's build, the second step of `npm run build` (and so of `prepack`): bundles the
 * page (console/src, TypeScript on Lit) with esbuild into one minified dist/console/console.js,
 * and copies index.html, console.css and favicon.svg beside it. The emulator serves that folder at
 * /_console/ (src/emulator/http/consoleServer.ts); nothing is fetched at run time. About 0.1 s.
 *
 *   node tools/consoleBuild.js          build
 *   node tools/consoleBuild.js --stale  build only when console/ or what it imports changed
 */
const fs = require("fs");
const path = require("path");

const REPO = path.resolve(__dirname, "..");
const SOURCE = path.join(REPO, "console");
const OUT = path.join(REPO, "dist", "console");
const STATIC = ["index.html", "console.css", "favicon.svg"];

/** Builds dist/console; returns the bundle's size in bytes. */
function buildConsole() {
  const esbuild = require("esbuild");
  fs.mkdirSync(OUT, { recursive: true });
  const result = esbuild.buildSync({
    entryPoints: [path.join(SOURCE, "src", "main.ts")],
    outfile: path.join(OUT, "console.js"),
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    tsconfig: path.join(SOURCE, "tsconfig.json"),
    legalComments: "eof",
    logLevel: "warning",
    metafile: true,
  });
  for (const file of STATIC) fs.copyFileSync(path.join(SOURCE, file), path.join(OUT, file));
  return Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
}

/** Whether anything the page is built from is newer than the built page. */
function consoleIsStale() {
  const built = path.join(OUT, "console.js");
  if (!fs.existsSync(built)) return true;
  const at = fs.statSync(built).mtimeMs;
  const newer = (dir) =>
    fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .some((e) => e.isFile() && fs.statSync(path.join(e.parentPath, e.name)).mtimeMs > at);
  // The page imports types and constants from src/ too.
  return (
    newer(SOURCE) ||
    newer(path.join(REPO, "src", "contract")) ||
    newer(path.join(REPO, "src", "emulator", "http"))
  );
}

module.exports = { buildConsole, consoleIsStale };

if (require.main === module) {
  const onlyStale = process.argv.includes("--stale");
  if (onlyStale && !consoleIsStale()) process.exit(0);
  try {
    const bytes = buildConsole();
    process.stdout.write(`dist/console/console.js: ${Math.round(bytes / 1024)} KB\n`);
  } catch (error) {
    process.stderr.write(`console build failed: ${error.message}\n`);
    process.exit(1);
  }
}
