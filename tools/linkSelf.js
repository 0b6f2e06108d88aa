// Makes this repository's own programs (examples/, test/e2e/programs/) resolve `pulumi-vmapi`
// the way a user's program does, from node_modules: a link node_modules/pulumi-vmapi -> .. .
// The dynamic-provider plugin loads the provider runtime by package name from the program's
// folder, so without it the repository's examples could not run. Runs after `npm install`/`npm ci`.
const fs = require("fs");
const path = require("path");

const link = path.join(__dirname, "..", "node_modules", "pulumi-vmapi");
if (!fs.existsSync(path.dirname(link))) process.exit(0); // installed as a dependency: nothing to do
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // No link yet.
}
fs.symlinkSync("..", link, "dir");
