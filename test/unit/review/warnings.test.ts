/**
 * The providers' warnings in vmapi-review, on previews captured from the real engine (fixtures/,
 * test/e2e/review.test.ts): a machine replaced because its script's text changes, on both routes.
 * A TypeScript program's dynamic provider writes its warning to stderr, which the engine passes on
 * as `info#err` with no URN (replace-script.json); the plugin sends it as a `warning` with the
 * machine's URN (yaml-replace-script.json, a Pulumi YAML program).
 */
import * as fs from "fs";
import * as path from "path";
import { DEFAULT_PRICE_LIST, reviewPreview } from "../../../src";
import { buildModel } from "../../../src/review/model";
import { parsePreview } from "../../../src/review/previewJson";

const FIXTURES = path.join(__dirname, "fixtures");
type Diagnostic = { urn?: string; message?: string; severity?: string };
type Digest = { steps: Array<{ urn: string; oldState?: { id?: string } }>; diagnostics?: Diagnostic[] };
const digest = (name: string): Digest =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as Digest;
const warningsOf = (preview: Digest) => buildModel(parsePreview(preview), DEFAULT_PRICE_LIST).warnings;
/** The id `up` gave the machine `box` of a fixture's stack. */
const boxId = (preview: Digest) => preview.steps.find((s) => s.urn.endsWith("::box"))!.oldState!.id!;

/** The Machine diff's warning after the machine's name, as the provider words it (machineProvider.ts). */
const REPLACED =
  "will be REPLACED because its scriptId changes (an edited Script is a new script with a new id), " +
  "and the API fixes a machine's scriptId at create: the machine is destroyed with its disk and a new one is created. " +
  "To change a machine's startup script and keep the machine, leave scriptId out of the Machine and create the Script " +
  'with machineId: <machine>.machineId (README, "Startup scripts that change"); or add ignoreChanges: ["scriptId"] ' +
  "to keep this machine as it is";

test("review model: a dynamic provider's warning (info#err, `warning: [runtime]`, no URN) → a warning of no resource, without the prefix", () => {
  const preview = digest("replace-script");
  expect(preview.diagnostics).toEqual([
    { severity: "info#err", message: expect.stringMatching(/^warning: \[runtime\] machine box-1 /) },
  ]);
  expect(warningsOf(preview)).toEqual([{ message: `machine box-1 (${boxId(preview)}) ${REPLACED}` }]);
});

test("review model: the plugin's warning (severity warning, the machine's URN) → a warning of that resource", () => {
  const preview = digest("yaml-replace-script");
  expect(preview.diagnostics).toEqual([
    {
      severity: "warning",
      urn: expect.stringMatching(/::vmapi:index:Machine::box$/),
      message: expect.stringMatching(/^warning: machine yaml-box-1 /),
    },
  ]);
  expect(warningsOf(preview)).toEqual([
    { resource: "box", message: `machine yaml-box-1 (${boxId(preview)}) ${REPLACED}` },
  ]);
});

test("review model: other stderr lines, infos and duplicates → left out; a stack's warning → no resource; a secret → (secret)", () => {
  const preview = digest("replace-script");
  const [dynamic] = preview.diagnostics!;
  const stackUrn = preview.steps[0].urn;
  preview.diagnostics = [
    dynamic,
    { severity: "info#err", message: "(node:412) [DEP0040] DeprecationWarning: punycode\n" },
    { severity: "info", message: "warning: said at info level\n" },
    dynamic,
    { severity: "warning", urn: stackUrn, message: "warning: a program's own warning\n" },
    { severity: "warning", message: "warning: machine [secret] (ps1) will be REPLACED\n" },
  ];
  expect(warningsOf(preview)).toEqual([
    { message: expect.stringMatching(/^machine box-1 .* will be REPLACED/) },
    { message: "a program's own warning" },
    { message: "machine (secret) (ps1) will be REPLACED" },
  ]);
});

test("review: the warnings → listed under the headline, each with its resource when known, HTML escaped", () => {
  for (const [name, row] of [
    ["replace-script", "- machine box-1"],
    ["yaml-replace-script", "- `box`: machine yaml-box-1"],
  ]) {
    const preview = digest(name);
    const { markdown } = reviewPreview(preview);
    const escaped = REPLACED.replace("<machine>", "&lt;machine&gt;");
    expect(markdown).toContain(
      "**Destroys 1 disk.**\n\n**Warnings from the preview:**\n\n" +
        `${row} (${boxId(preview)}) ${escaped}\n\n| machine | change |`,
    );
  }
  expect(reviewPreview(digest("replace-size")).markdown).not.toContain("Warnings");
});
