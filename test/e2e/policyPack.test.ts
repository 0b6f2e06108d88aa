/**
 * The policy pack on the real CLI (docs/policies.md): `--policy-pack` naming the analyzer's
 * executable (plugin/pulumi-analyzer-policy-vmapi, which runs the package's compiled analyzer under
 * node; the release's executable under that name serves the same), over a Pulumi YAML program on
 * this repository's resource plugin. A mandatory violation fails `preview` with a non-zero exit,
 * the policy's name and message on the resource's row, and stops `up` before any write to the API
 * (the emulator's request counts); an advisory one warns and the update goes on; the stack's
 * monthly cost is checked over the whole preview; a `--policy-pack-config` naming an unknown
 * policy or giving a value of the wrong type fails before the program runs: the API sees nothing.
 * The TypeScript classes' machines (`pulumi-nodejs:dynamic/vmapi:Machine`) meet the same rules.
 */
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { REPO, expectExit, type CliRun } from "./support/cli";
import { useTempDirs } from "../kit/tempDirs";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(300_000);

const ANALYZER = path.join(REPO, "plugin", "pulumi-analyzer-policy-vmapi");
const PLUGIN = path.join(REPO, "plugin");
const printed = (run: CliRun) => run.stdout + run.stderr;
const tempDir = useTempDirs();
const ctx = useE2eContext();

/** Requests that change something (every method but GET), by route. */
function writes(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).filter(([route]) => !route.startsWith("GET ")));
}

/**
 * A YAML program on this repository's plugin: an hourly P5000 with a public IP and no shutdown
 * timeout in East Coast (NY2), and a script whose text is plain.
 */
function program(): string {
  const dir = tempDir("vmapi-policy-");
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: vmapi-e2e-policy
runtime: yaml
plugins:
  providers:
    - name: vmapi
      path: ${PLUGIN}
resources:
  gpu:
    type: vmapi:index:Machine
    properties:
      region: East Coast (NY2)
      machineType: P5000
      size: 50
      billingType: hourly
      templateId: ${SEEDED.headlessTemplate}
      assignPublicIp: true
  setup:
    type: vmapi:index:Script
    properties:
      scriptText: "#!/bin/bash\\necho hello\\n"
`,
  );
  return dir;
}

/** A pack config file in `dir`. */
function packConfig(dir: string, config: Record<string, unknown>): string {
  const file = path.join(dir, `policy-${Object.keys(config).join("-")}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

const policyArgs = (config: string) => ["--policy-pack", ANALYZER, "--policy-pack-config", config];

test("mandatory allowed-regions: preview exits non-zero with the policy's name and message on the machine's row; up is stopped before any API write, the stack stays empty; up --skip-preview never creates the machine", async () => {
  const dir = program();
  const stack = await ctx.stack(dir, ctx.emu.keys.individual);
  const config = packConfig(dir, {
    "allowed-regions": { enforcementLevel: "mandatory", regions: ["Europe (AMS1)"] },
  });

  const preview = await stack.preview(...policyArgs(config));
  expect(preview.code).not.toBe(0);
  const out = printed(preview);
  expect(out).toContain("[mandatory]  allowed-regions  (vmapi:index:Machine: gpu)");
  expect(out).toContain('region "East Coast (NY2)" is not allowed: use one of "Europe (AMS1)"');
  // The other policies are advisory by default: reported, not blocking.
  expect(out).toContain("[advisory]  gpu-shutdown-timeout  (vmapi:index:Machine: gpu)");
  expect(out).toContain("[advisory]  script-text-secret  (vmapi:index:Script: setup)");

  // `up` previews first (as it does unless told --skip-preview): the violation stops it there.
  const before = (await ctx.emulator()).requestCounts;
  const up = await stack.cli(["up", "--yes", ...policyArgs(config)], { events: true });
  expect(up.code).not.toBe(0);
  expect(printed(up)).toContain("[mandatory]  allowed-regions");
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));
  expect((await stack.resources()).filter((r) => r.type.startsWith("vmapi:"))).toEqual([]);

  // With --skip-preview the engine analyzes each resource as its step comes: the machine is still
  // never created (a script that does not depend on it may be).
  const skipped = await stack.up(...policyArgs(config));
  expect(skipped.code).not.toBe(0);
  expect(
    Object.keys(writes((await ctx.emulator()).requestCounts)).filter((r) => r.includes("/machines")),
  ).toEqual(Object.keys(writes(before)).filter((r) => r.includes("/machines")));
  expect((await stack.resources()).filter((r) => r.type === "vmapi:index:Machine")).toEqual([]);
});

test("advisory violations (the defaults): up warns with each policy and creates the machine and the script", async () => {
  const dir = program();
  const stack = await ctx.stack(dir, ctx.emu.keys.individual);
  const config = packConfig(dir, { "allowed-regions": { regions: ["Europe (AMS1)"] } });
  const up = expectExit(await stack.up(...policyArgs(config)));
  const out = printed(up);
  for (const policy of [
    "allowed-regions",
    "gpu-shutdown-timeout",
    "no-public-ip",
    "protect-machines-with-disks",
  ])
    expect(out).toContain(`[advisory]  ${policy}  (vmapi:index:Machine: gpu)`);
  expect(
    (await stack.resources())
      .map((r) => r.type)
      .filter((t) => t.startsWith("vmapi:"))
      .sort(),
  ).toEqual(["vmapi:index:Machine", "vmapi:index:Script"]);
  expectExit(await stack.destroy());
});

test("mandatory stack-monthly-cost: the whole preview's machines above the ceiling → preview fails on the stack's row with the sum; a ceiling above it → passes", async () => {
  const dir = program();
  const stack = await ctx.stack(dir, ctx.emu.keys.individual);
  const over = packConfig(dir, { "stack-monthly-cost": { enforcementLevel: "mandatory", maxMonthly: 100 } });
  const failed = await stack.preview(...policyArgs(over));
  expect(failed.code).not.toBe(0);
  expect(printed(failed)).toMatch(/\[mandatory\] {2}stack-monthly-cost {2}\(pulumi:pulumi:Stack: /);
  expect(printed(failed)).toContain(
    "the stack's 1 machine(s) cost $574.40 a month, above the ceiling of $100.00",
  );
  const passed = await stack.preview(
    "--policy-pack",
    ANALYZER,
    "--policy-pack-config",
    packConfig(dir, {
      "stack-monthly-cost": { enforcementLevel: "mandatory", maxMonthly: 600 },
    }),
  );
  expectExit(passed);
  expect(printed(passed)).not.toContain("stack-monthly-cost");
});

test("--policy-pack-config naming an unknown policy, an unknown property or a wrong value type → a clear error before the program runs; the API sees no request", async () => {
  const dir = program();
  const stack = await ctx.stack(dir, ctx.emu.keys.individual);
  const before = (await ctx.emulator()).requestCounts;
  const cases: [Record<string, unknown>, string][] = [
    [{ "no-such-policy": "mandatory" }, 'unknown policy "no-such-policy" (the pack has: allowed-regions,'],
    [
      { "no-public-ip": { allowed: true } },
      'no-public-ip: unknown property "allowed" (it takes: allowedNames)',
    ],
    [
      { "machine-monthly-cost": { maxMonthly: "lots" } },
      "machine-monthly-cost: maxMonthly: Invalid type. Expected: number, given: string",
    ],
  ];
  for (const [config, message] of cases) {
    const run = await stack.preview(...policyArgs(packConfig(dir, config)));
    expect(run.code).not.toBe(0);
    expect(printed(run)).toContain(message);
  }
  expect((await ctx.emulator()).requestCounts).toEqual(before);
});

test("TypeScript program (the dynamic classes): mandatory gpu-shutdown-timeout and no-public-ip on pulumi-nodejs:dynamic/vmapi:Machine → preview fails on its row; up is stopped before any API write", async () => {
  const dir = tempDir("vmapi-policy-ts-");
  const stack = await ctx.stack(path.join(PROGRAMS, "machine"), ctx.emu.keys.individual, {
    machineType: "P5000",
    dynamicPublicIp: "true",
  });
  const config = packConfig(dir, {
    "gpu-shutdown-timeout": "mandatory",
    "no-public-ip": { enforcementLevel: "mandatory" },
  });
  const preview = await stack.preview(...policyArgs(config));
  expect(preview.code).not.toBe(0);
  const out = printed(preview);
  expect(out).toContain("[mandatory]  gpu-shutdown-timeout  (pulumi-nodejs:dynamic/vmapi:Machine: box)");
  expect(out).toContain("an hourly P5000 machine needs shutdownTimeoutInHours");
  expect(out).toContain("[mandatory]  no-public-ip  (pulumi-nodejs:dynamic/vmapi:Machine: box)");
  expect(out).toContain('dynamicPublicIp is true: remove it, or add "box" to this policy\'s allowedNames');

  const before = (await ctx.emulator()).requestCounts;
  const up = await stack.cli(["up", "--yes", ...policyArgs(config)], { events: true });
  expect(up.code).not.toBe(0);
  expect(writes((await ctx.emulator()).requestCounts)).toEqual(writes(before));

  // The rules kept: a timeout and no public IP → the preview passes.
  await stack.setConfig({ shutdownTimeoutInHours: "2", dynamicPublicIp: "false" });
  expectExit(await stack.preview(...policyArgs(config)));
});
