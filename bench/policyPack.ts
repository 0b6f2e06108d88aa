/**
 * What the policy pack adds to a preview (issue 48's target: at most 1.15 × the same preview
 * without it): a Pulumi YAML program of N Machines on the installed release plugin, `up`ped once,
 * then `rounds` rounds each timing `pulumi preview --expect-no-changes` without the pack and with
 * it (`--policy-pack` naming the installed release analyzer, every policy configured so each runs:
 * bench/policyPack.json's config below), interleaved so a noisy moment of the shared machine hits
 * both alike; the medians and their ratio are printed. The CLI runs alone, as a user of the
 * release runs it (test/e2e/support/plainCli.ts).
 *
 * In the same rounds, the same preview with a no-op analyzer written the way Pulumi's own plugins
 * are (Go, the SDK's gRPC: bench/goNoopAnalyzer), the floor of any pack on the engine.
 *
 *   npx ts-node --transpile-only bench/policyPack.ts [N=200] [ROUNDS=7]
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { connectionConfig, startE2eEmulator } from "../test/e2e/support/kit";
import { PlainCli } from "../test/e2e/support/plainCli";
import { pluginMachinesProgram } from "./pluginProgram";
import { goNoopAnalyzer, installReleaseAnalyzer, installReleasePlugin } from "./releasePlugin";
import { median, round, timed } from "./support";

/**
 * Every policy on but protect-machines-with-disks (the program's Machines are not protected: 200
 * advisory violations would time the display of 200 warnings), none violated by the program's
 * Machines (C4, 50 GB, hourly, no public IP): a stack that keeps its rules, CI's common case.
 */
const PACK_CONFIG = {
  "allowed-regions": {
    enforcementLevel: "mandatory",
    regions: ["East Coast (NY2)", "West Coast (CA1)", "Europe (AMS1)"],
  },
  "allowed-machine-types": { enforcementLevel: "mandatory", machineTypes: ["C4"] },
  "machine-monthly-cost": { enforcementLevel: "mandatory", maxMonthly: 100 },
  "stack-monthly-cost": { enforcementLevel: "mandatory", maxMonthly: 100000 },
  "gpu-shutdown-timeout": "mandatory",
  "no-public-ip": "mandatory",
  "protect-machines-with-disks": "disabled",
  "script-text-secret": "mandatory",
};

/** The medians of a preview without and with the pack, and their ratio. */
export interface PolicyPackResult {
  resources: number;
  rounds: number;
  withoutMs: number;
  withMs: number;
  ratio: number;
  /** The no-op analyzer's median and ratio. */
  floorMs: number;
  floorRatio: number;
}

/** Runs the benchmark: N Machines, `rounds` rounds. */
export async function policyPackBenchmark(resources: number, rounds: number): Promise<PolicyPackResult> {
  const floorAnalyzer = goNoopAnalyzer();
  const emu = await startE2eEmulator();
  const plain = PlainCli.create();
  const program = pluginMachinesProgram(resources, "tubsrv01");
  try {
    installReleasePlugin(String(plain.env.PULUMI_HOME));
    const analyzer = installReleaseAnalyzer(String(plain.env.PULUMI_HOME));
    const config = path.join(program.dir, "policy.json");
    fs.writeFileSync(config, JSON.stringify(PACK_CONFIG));
    const stack = await plain.stack(program.dir, connectionConfig(emu, emu.keys.individual));
    const ok = (args: string[]) => plain.ok([...args, "--stack", stack.name], { cwd: program.dir });
    await ok(["up", "--yes", "--skip-preview"]);
    const without: number[] = [];
    const withPack: number[] = [];
    const floor: number[] = [];
    const pack = ["--policy-pack", analyzer, "--policy-pack-config", config];
    for (let i = 0; i < rounds; i++) {
      without.push((await timed(() => ok(["preview", "--expect-no-changes"]))).ms);
      withPack.push((await timed(() => ok(["preview", "--expect-no-changes", ...pack]))).ms);
      floor.push(
        (await timed(() => ok(["preview", "--expect-no-changes", "--policy-pack", floorAnalyzer]))).ms,
      );
    }
    await ok(["destroy", "--yes", "--skip-preview"]);
    const withoutMs = Math.round(median(without));
    const withMs = Math.round(median(withPack));
    const floorMs = Math.round(median(floor));
    return {
      resources,
      rounds,
      withoutMs,
      withMs,
      ratio: round(withMs / withoutMs),
      floorMs,
      floorRatio: round(floorMs / withoutMs),
    };
  } finally {
    plain.dispose();
    program.remove();
    await emu.close();
  }
}

if (require.main === module) {
  const [n = "200", rounds = "7"] = process.argv.slice(2);
  policyPackBenchmark(Number(n), Number(rounds)).then(
    (r) =>
      console.log(
        `preview of ${r.resources} Machines, median of ${r.rounds}: ${r.withoutMs} ms without the pack, ${r.withMs} ms with it: ${r.ratio} x (target ≤ 1.15 x)` +
          `; with a no-op analyzer in Go ${r.floorMs} ms: ${r.floorRatio} x`,
      ),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
