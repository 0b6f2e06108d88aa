/**
 * `vmapi-recover-pending` after a killed `pulumi up` whose creates ran in two accounts, on the
 * real engine, on both routes: the TypeScript classes with a named account (`account: "team"`,
 * its key in `vmapi:accounts`; examples/two-accounts) and a Pulumi YAML program with a provider
 * resource of its own key (test/e2e/programs/yaml/accounts). Each pending create is looked up
 * with its own account's key as the state holds it (the export with secrets shown, piped in),
 * not the one in the environment: both machines are adopted, the next `up` names them in place,
 * and no key shows in what the tool printed or wrote.
 *
 * The emulator holds both create requests until the CLI is killed (a fault rule's `hold`), then
 * lets them act, as the API would after the client died: each machine exists, under its
 * creating name, and the stack has only pending creates. The stacks poll at the API's real pace
 * (`vmapi:pollScale` 1) while they are killed, so no create is given up on and sent again while
 * it is held.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, EXAMPLES, PROGRAMS, liveMachines, untilHeld, until } from "./support/kit";
import { REPO, expectExit, steps } from "./support/cli";
import type { EngineStack, StackDeployment } from "./support/engineStack";
import { childrenNamed, processesWithEnv } from "./support/processes";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(300_000);

const CREATE = { method: "POST", route: "/machines/createSingleMachinePublic" };
const CREATING = / \(creating [0-9a-f]{10}\)$/;

const ctx = useE2eContext();

/**
 * `up` with both creates held, the CLI killed, then the creates let act; the lock removed.
 * Returns the machines the creates made.
 */
async function killedWhileCreating(stack: EngineStack): Promise<string[]> {
  const before = new Set(liveMachines(await ctx.emulator()).map((m) => m.id));
  const made = async () => liveMachines(await ctx.emulator()).filter((m) => !before.has(m.id));
  await ctx.emu.control.addFaults([{ ...CREATE, hold: "request", times: 2 }]);
  let wrapper = 0;
  const up = stack.cli(["up", "--yes", "--skip-preview"], { onSpawn: (pid) => (wrapper = pid) });
  await untilHeld(ctx.emu.control, up, 2);
  const [cli] = childrenNamed(wrapper, "pulumi");
  process.kill(cli, "SIGKILL");
  expect((await up).code).toBe(137);
  expect(processesWithEnv(ctx.workspace.dir)).toEqual([]);
  expect(await made()).toEqual([]);
  await ctx.emu.control.clearFaults();
  expect(await ctx.emu.control.release()).toEqual([CREATE, CREATE]);
  await until(async () => (await made()).length === 2, "the held creates to act", 120_000);
  expect((await made()).every((m) => CREATING.test(m.name))).toBe(true);
  expectExit(await stack.cli(["cancel", "--yes"]));
  return (await made()).map((m) => m.id);
}

/**
 * `pulumi stack export --show-secrets | vmapi-recover-pending stack.json`, with another account's
 * key in the environment (the individual one, which sees neither team machine): the key to use
 * is the state's.
 */
async function recoverPending(stack: EngineStack): Promise<{ code: number; stdout: string; stderr: string }> {
  const file = path.join(ctx.workspace.dir, `${stack.name}-export.json`);
  fs.writeFileSync(file, expectExit(await stack.cli(["stack", "export"])).stdout);
  const shown = expectExit(await stack.cli(["stack", "export", "--show-secrets"])).stdout;
  const child = spawn(process.execPath, [path.join(REPO, "dist", "recovery", "cli.js"), file], {
    env: { ...ctx.workspace.env, VMAPI_API_KEY: ctx.emu.keys.individual, VMAPI_BASE_URL: ctx.emu.url },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.end(shown);
  const code = await new Promise<number>((resolve) => child.once("close", (c) => resolve(c ?? 1)));
  return { code, stdout, stderr };
}

/**
 * Recovery, import, refresh, up: the machines `made` adopted, each as `adopted` says (resource
 * name → the account the report names), then named in place; then destroy.
 */
async function expectRecovered(
  stack: EngineStack,
  made: string[],
  adopted: Record<string, string>,
): Promise<void> {
  const pending = (await stack.export()).deployment.pending_operations ?? [];
  expect(pending.map((p) => p.resource.urn.split("::").pop()).sort()).toEqual(Object.keys(adopted).sort());

  const recovered = await recoverPending(stack);
  expect(recovered.code).toBe(0);
  for (const [name, where] of Object.entries(adopted)) {
    const urn = pending.find((p) => p.resource.urn.endsWith(`::${name}`))!.resource.urn;
    expect(recovered.stderr).toMatch(
      new RegExp(`^adopted ${escape(urn)}: its create made machine ps\\w+ in ${where} `, "m"),
    );
  }
  const keys = [ctx.emu.keys.individual, ctx.emu.keys.teamAdmin];
  for (const key of keys) expect(recovered.stdout + recovered.stderr).not.toContain(key);
  const repaired = JSON.parse(recovered.stdout) as StackDeployment;
  expect(repaired.deployment.pending_operations).toEqual([]);

  const file = path.join(ctx.workspace.dir, `${stack.name}-repaired.json`);
  fs.writeFileSync(file, recovered.stdout);
  expectExit(await stack.cli(["stack", "import", "--file", file]));
  await stack.setConfig({ "vmapi:pollScale": String(ctx.timeScale) });
  expectExit(await stack.refresh());
  const up = expectExit(await stack.up());
  // Each adopted machine keeps its id and is given its name (it had its creating name); none is made.
  expect(steps(up).map((s) => [s.name, s.op])).toEqual(
    expect.arrayContaining(Object.keys(adopted).map((name) => [name, "update"])),
  );
  expect(steps(up).filter((s) => s.op === "create")).toEqual([]);
  const inState = (await stack.resources()).filter((r) => r.type.endsWith("Machine")).map((r) => r.id!);
  expect(inState.sort()).toEqual([...made].sort());
  const live = liveMachines(await ctx.emulator()).filter((m) => made.includes(m.id));
  expect(live.map((m) => m.id).sort()).toEqual(inState);
  expect(live.some((m) => CREATING.test(m.name))).toBe(false);

  expectExit(await stack.destroy());
  expect(liveMachines(await ctx.emulator()).filter((m) => made.includes(m.id))).toEqual([]);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("TypeScript, a machine of account `team` and one of the default account, CLI killed mid-create → recover-pending adopts each with its own account's key; up names them in place", async () => {
  const stack = await ctx.twoAccountStack(path.join(EXAMPLES, "two-accounts"), {
    teamId: SEEDED.team,
    "vmapi:pollScale": "1",
  });
  const made = await killedWhileCreating(stack);
  await expectRecovered(stack, made, { personal: "the default account", "team-trainer": 'account "team"' });
});

test("Pulumi YAML, a machine under a provider resource with its own key and one under the default provider, CLI killed mid-create → recover-pending adopts each with its provider's key; up names them in place", async () => {
  const stack = await ctx.stack(path.join(PROGRAMS, "yaml", "accounts"), ctx.emu.keys.individual, {
    teamKey: { secret: ctx.emu.keys.teamAdmin },
    teamUserId: SEEDED.member,
    teamId: SEEDED.team,
    apiUrl: ctx.emu.url,
    "vmapi:pollScale": "1",
  });
  const made = await killedWhileCreating(stack);
  await expectRecovered(stack, made, { mine: "the default provider", theirs: "provider team" });
});
