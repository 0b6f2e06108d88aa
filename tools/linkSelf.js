// Makes this repository's own programs (examples/, test/e2e/programs/) resolve `pulumi-vmapi`
// the way a user's program does, from node_modules: a link node_modules/pulumi-vmapi -> .. .
// The dynamic-provider plugin loads the provider runtime by package name from the program's
// folder, so without it the repository's examples could not run. Run by `prepare` (after
// `npm install`/`npm ci`) and again by `npm run pulumi`, since other npm commands prune the link.
const fs = require("fs");
const path = require("path");

/** Creates or repairs the link; does nothing where this package is installed as a dependency. */
function linkSelf() {
  const modules = path.join(__dirname, "..", "node_modules");
  const link = path.join(modules, "pulumi-vmapi");
  if (
    !fs.existsSync(modules) ||
    path.basename(path.dirname(path.resolve(__dirname, ".."))) === "node_modules"
  )
    return;
  try {
    if (fs.readlinkSync(link) === "..") return;
  } catch {
    // No link yet (or a folder in its place).
  }
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync("..", link, "dir");
}

module.exports = { linkSelf };
if (require.main === module) linkSelf();
