/**
 * vmapi-review's Markdown on previews captured from the real engine (fixtures/, written by
 * test/e2e/review.test.ts with VMAPI_CAPTURE_REVIEW_FIXTURES=1): one change each of the stack of
 * test/e2e/programs/review, a machine `box` (C4, 50 GB, hourly, a static IP) booting `setup`.
 */
import * as fs from "fs";
import * as path from "path";
import {
  MACHINE_TYPES,
  reviewPreview,
  DEFAULT_PRICE_LIST,
  parseFailOn,
  PriceListError,
  PreviewFormatError,
} from "../../../src";

const FIXTURES = path.join(__dirname, "fixtures");
const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, `${name}.json`), "utf8");
type Step = { op: string; urn: string; oldState?: { id?: string } };
const steps = (name: string): Step[] => (JSON.parse(fixture(name)) as { steps: Step[] }).steps;
/** The stack the fixtures were captured on, and the id `up` gave the machine (both from the JSON). */
const STACK = steps("create")[0].urn.split("::")[0].replace("urn:pulumi:", "");
const BOX_ID = steps("no-changes").find((s) => s.urn.endsWith("::box"))!.oldState!.id!;

const FOOTER =
  "<sub>Prices: pulumi-vmapi list prices (the emulator's table). Hourly machines cost their rate while on, " +
  "monthly ones their monthly rate; disks by size; 730 hours a month.</sub>";

test("review: create → the machine with its cost, the script it boots with, the script itself", () => {
  expect(reviewPreview(fixture("create")).markdown).toBe(
    [
      `### vmapi review of \`vmapi-e2e-review/${STACK}\``,
      "",
      "**Machines: 1 to create.** Cost +$0.0428/h, +$31.28/month ($0.00 → $31.28).",
      "",
      "| machine | change | why | per hour | per month |",
      "| --- | --- | --- | --- | --- |",
      "| `box` (box-1) | create |  | – → $0.0428 | – → $31.28 |",
      "| **stack** (1 machine after) |  |  | **$0.0000 → $0.0428** | **$0.00 → $31.28** |",
      "",
      "**Scripts at next boot:**",
      "",
      "- `box-1` (new) runs `setup-script` once (a new script)",
      "",
      "**Other resources:**",
      "",
      "- Script `setup`: create",
      "",
      FOOTER,
      "",
    ].join("\n"),
  );
});

test("review: size 50 → 100 → replace forced by size, the old disk destroyed, its static IP released, the script at boot", () => {
  const result = reviewPreview(fixture("replace-size"));
  expect(result.markdown).toBe(
    [
      `### vmapi review of \`vmapi-e2e-review/${STACK}\``,
      "",
      "**Machines: 1 to replace.** Cost +$0.0027/h, +$2.00/month ($31.28 → $33.28). **Destroys 1 disk.**",
      "",
      "| machine | change | why | per hour | per month |",
      "| --- | --- | --- | --- | --- |",
      `| \`box\` (box-1, ${BOX_ID}) | **replace** | forced by \`size\` 50 → 100 | $0.0428 → $0.0456 | $31.28 → $33.28 |`,
      "| **stack** (1 machine after) |  |  | **$0.0428 → $0.0456** | **$31.28 → $33.28** |",
      "",
      "**Disks destroyed** (their data is lost):",
      "",
      `- 50 GB disk of \`box-1\` (${BOX_ID}), by the replace of \`box\``,
      "",
      "**Public IPs:**",
      "",
      "- 100.64.0.1 (static) of `box-1` is released by the replace",
      "",
      "**Scripts at next boot:**",
      "",
      "- `box-1` (replacement) runs `setup-script` once",
      "",
      FOOTER,
      "",
    ].join("\n"),
  );
  expect(result).toMatchObject({ destroyedDisks: 1, failures: [] });
  expect(result.monthlyCost.after - result.monthlyCost.before).toBeCloseTo(2, 6);
});

test.each([
  [
    "no-changes",
    [
      "**No machine changes.** Cost unchanged at $0.0428/h, $31.28/month.",
      `| \`box\` (box-1, ${BOX_ID}) | no change |  | $0.0428 → $0.0428 | $31.28 → $31.28 |`,
    ],
  ],
  [
    "rename",
    [
      "**Machines: 1 to update in place.** Cost unchanged at $0.0428/h, $31.28/month.",
      `| \`box\` (box-1 → box-2, ${BOX_ID}) | update in place | \`name\` "box-1" → "box-2" | $0.0428 → $0.0428 | $31.28 → $31.28 |`,
    ],
  ],
  [
    "replace-script",
    [
      "**Machines: 1 to replace.** Cost unchanged at $0.0428/h, $31.28/month. **Destroys 1 disk.**",
      "forced by `scriptId` ",
      " → (from `setup`, known after up) | $0.0428 → $0.0428 | $31.28 → $31.28 |",
      "- `box-1` (replacement) runs `setup-script` once (the script is replaced)",
      "- Script `setup`: replace (forced by the script's text)",
    ],
  ],
  [
    "stop",
    [
      "**Machines: 1 to stop.** Cost -$0.0360/h, -$26.28/month ($31.28 → $5.00).",
      `| \`box\` (box-1, ${BOX_ID}) | stop |  | $0.0428 → $0.0068 | $31.28 → $5.00 |`,
    ],
  ],
  [
    "delete",
    [
      "**Machines: 1 to delete.** Cost -$0.0428/h, -$31.28/month ($31.28 → $0.00). **Destroys 1 disk.**",
      `| \`box\` (box-1, ${BOX_ID}) | **delete** |  | $0.0428 → – | $31.28 → – |`,
      "| **stack** (0 machines after) |  |  | **$0.0428 → $0.0000** | **$31.28 → $0.00** |",
      `- 50 GB disk of \`box-1\` (${BOX_ID}), by the delete of \`box\``,
      "- 100.64.0.1 (static) of `box-1` is released by the delete",
    ],
  ],
  [
    "adopt",
    [
      "**Machines: 1 to adopt.** Cost unchanged at $0.0565/h, $41.28/month.",
      "| `adopted` (legacy-1) | adopt | an existing machine: no new cost | $0.0137 → $0.0137 | $10.00 → $10.00 |",
      "| **stack** (2 machines after) |  |  | **$0.0565 → $0.0565** | **$41.28 → $41.28** |",
    ],
  ],
])("review: %s → its lines", (name, lines) => {
  const { markdown } = reviewPreview(fixture(name));
  for (const line of lines) expect(markdown).toContain(line);
  const destroys = name === "replace-script" || name === "delete";
  expect(markdown.includes("Disks destroyed")).toBe(destroys);
  expect(markdown.includes("Scripts at next boot")).toBe(name === "replace-script");
});

test("review: a preview without --show-sames → totals of the listed machines, the footer says how to get the stack's", () => {
  // What `pulumi preview --json` prints without --show-sames: the unchanged resources are left out
  // of `steps` (the root stack excepted) but still counted in `changeSummary`.
  const full = JSON.parse(fixture("adopt")) as { steps: Step[] };
  const listed = { ...full, steps: full.steps.filter((s, i) => i === 0 || s.op !== "same") };
  const { markdown } = reviewPreview(listed);
  expect(markdown).toContain("| **machines in this preview** (1 machine after) |");
  expect(markdown).not.toContain("`box`");
  expect(markdown).toContain(
    "2 unchanged resources not in this preview, so not in the totals: run `pulumi preview --json --show-sames` for the stack's.",
  );
});

test("review: a price list of the user's → its rates, named in the footer; a machine type it lacks → PriceListError naming it", () => {
  const prices = {
    name: "Acme negotiated prices 2026",
    machineTypes: { C4: { hourly: "0.1", monthly: "50" } },
    storage: [{ upToGb: 2000, monthly: "1" }],
  };
  const { markdown } = reviewPreview(fixture("replace-size"), { prices });
  // 0.1 × 730 + 1 = 74 a month, before and after (one storage tier).
  expect(markdown).toContain("| $0.1014 → $0.1014 | $74.00 → $74.00 |");
  expect(markdown).toContain("<sub>Prices: Acme negotiated prices 2026.");
  expect(() => reviewPreview(fixture("adopt"), { prices })).toThrow(
    new PriceListError(
      'the price list "Acme negotiated prices 2026" has no price for machineType C2 (it prices: C4)',
    ),
  );
});

test("review: --fail-on destroy and cost-increase → failures that name the disk and the increase; passing gates → none", () => {
  const json = fixture("replace-size");
  const failed = reviewPreview(json, { failOn: parseFailOn("destroy,cost-increase=1.5") });
  expect(failed.failures).toEqual([
    `--fail-on destroy: 1 disk(s) would be destroyed: box-1 (${BOX_ID}, 50 GB)`,
    "--fail-on cost-increase=1.5: the monthly cost grows by $2.00 ($31.28 → $33.28)",
  ]);
  expect(failed.markdown).toContain("**CI gate failed:**\n\n- --fail-on destroy: 1 disk(s)");
  expect(reviewPreview(json, { failOn: parseFailOn("cost-increase=$2") }).failures).toEqual([]);
  expect(reviewPreview(fixture("rename"), { failOn: parseFailOn("destroy") }).failures).toEqual([]);
});

test("review: not a preview → PreviewFormatError saying what to give", () => {
  expect(() => reviewPreview("Previewing update (dev):")).toThrow(PreviewFormatError);
  expect(() => reviewPreview("Previewing update (dev):")).toThrow(/pulumi preview --json/);
  expect(() => reviewPreview({ steps: [{ urn: "x" }] })).toThrow("steps.0.op is required");
});

test("prices: the built-in list prices every machine type the API has (the emulator serves it)", () => {
  expect(Object.keys(DEFAULT_PRICE_LIST.machineTypes).sort()).toEqual([...MACHINE_TYPES].sort());
});

test("docs/review.md: its example review is vmapi-review's Markdown of the captured replace-by-size preview, verbatim", () => {
  const page = fs.readFileSync(path.join(__dirname, "..", "..", "..", "docs", "review.md"), "utf8");
  const { markdown } = reviewPreview(fixture("replace-size"));
  expect(page).toContain(`\n\`\`\`\n${markdown}\`\`\`\n`);
});

test("review: a machineType known only after up → its cost shown as unknown, the headline says so, the cost gate fails", () => {
  // The create preview with machineType computed from another resource, as the engine sends it.
  const digest = JSON.parse(fixture("create")) as {
    steps: Array<Step & { newState?: { inputs?: Record<string, unknown> } }>;
  };
  digest.steps.find((s) => s.urn.endsWith("::box"))!.newState!.inputs!.machineType =
    "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
  const { markdown, failures } = reviewPreview(digest, { failOn: parseFailOn("cost-increase=1000") });
  expect(markdown).toContain(
    "| `box` (box-1) | create |  | – → ? (machineType known after up) | – → ? (machineType known after up) |",
  );
  expect(markdown).toContain("(some costs are known only after up)");
  expect(failures).toEqual(["--fail-on cost-increase=1000: the cost of 1 machine(s) is known only after up"]);
});

test("review: a secret input that changes → named, its values never shown", () => {
  const digest = JSON.parse(fixture("rename")) as {
    steps: Array<Step & { newState?: { inputs?: Record<string, unknown> } }>;
  };
  // What the JSON holds for a secret (the CLI writes "[secret]" in place of the value).
  digest.steps.find((s) => s.urn.endsWith("::box"))!.newState!.inputs!.name = "[secret]";
  const { markdown } = reviewPreview(digest);
  expect(markdown).toContain("(box-1 → (secret), ps");
  expect(markdown).toContain('| update in place | `name` "box-1" → (secret) |');
  expect(markdown).not.toContain("[secret]");
});

test("review: start → the machine's hours back; its script runs at that boot unless it ran once already", () => {
  const { markdown } = reviewPreview(fixture("start"));
  expect(markdown).toContain("**Machines: 1 to start.** Cost +$0.0360/h, +$26.28/month ($5.00 → $31.28).");
  expect(markdown).toMatch(
    /^\| `box` \(box-1, ps\w+\) \| start \| {2}\| \$0\.0068 → \$0\.0428 \| \$5\.00 → \$31\.28 \|$/m,
  );
  expect(markdown).not.toContain("Scripts at next boot"); // `setup` is runOnce: it ran at the first boot

  // The same preview with a script that runs at every boot.
  const digest = JSON.parse(fixture("start")) as {
    steps: Array<Step & { newState?: { inputs?: Record<string, unknown> } }>;
  };
  digest.steps.find((s) => s.urn.endsWith("::setup"))!.newState!.inputs!.runOnce = false;
  expect(reviewPreview(digest).markdown).toContain(
    "**Scripts at next boot:**\n\n- `box-1` (started) runs `setup-script` at every boot\n",
  );
});

test("review: a restart trigger changed (fixtures/restart.json, test/e2e/programs/scriptEdit) → the machine restarts, naming the trigger; its new script runs during this up", () => {
  const text = reviewPreview(fixture("restart")).markdown;
  const restart = steps("restart").find((s) => s.urn.endsWith("::box-restart"))!;
  const machineId = (restart as { oldState?: { outputs?: { machineId?: string } } }).oldState!.outputs!
    .machineId!;
  expect(text).toContain("**Machines: 1 to restart.**");
  expect(text).toMatch(
    new RegExp(
      `\\| \`box\` \\(${machineId}\\) \\| restart \\| \`restartTriggers\\[0\\]\` "sc[a-z0-9]+" → \\(from \`boot\`, known after up\\) \\|`,
    ),
  );
  expect(text).toMatch(
    new RegExp(
      `- \`${machineId}\` \\(assigned the script and restarted: it runs during this up\\) runs \`boot-[a-z0-9]{7}\``,
    ),
  );
});
