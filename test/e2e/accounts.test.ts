/**
 * Two accounts in one program on the real engine (examples/two-accounts and
 * test/e2e/programs/machine): each machine is created under the account it names, moving a
 * machine to the other account replaces it (the old one deleted with its own account's key), an
 * unknown account fails preview naming it, and neither key appears in plaintext in the state,
 * `stack export` or anything the CLI printed.
 */
import * as fs from "fs";
import * as path from "path";
import { E2eContext, EXAMPLES, PROGRAMS, liveMachines } from "./support/kit";
import { expectExit, steps, type CliRun } from "./support/cli";
import type { EngineStack } from "./support/engineStack";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(240_000);

const CREATE = "POST /machines/createSingleMachinePublic";
let ctx: E2eContext;
const runs: CliRun[] = [];
beforeAll(async () => {
  ctx = await E2eContext.start();
});
afterAll(() => ctx.close());

const recorded = async (run: Promise<CliRun>) => {
  const done = await run;
  runs.push(done);
  return done;
};
/** The seeded team member's id, for a team machine's `userId`. */
const memberId = async () =>
  (await ctx.client({ apiKey: ctx.emu.keys.teamAdmin }).users.list()).find(
    (u) => u.email === "max@acme.example",
  )!.id;
const idsSeenBy = async (apiKey: string) => (await ctx.client({ apiKey }).machines.list()).map((m) => m.id);

test("two-accounts example: the personal machine under the default key, the team machine under `team`", async () => {
  const stack = await ctx.twoAccountStack(path.join(EXAMPLES, "two-accounts"), { teamId: SEEDED.team });
  expectExit(await recorded(stack.up()));
  const outputs = await stack.outputs();
  expect(outputs.teamMachineAccount).toBe("team");
  const personal = String(outputs.personalMachineId);
  const team = String(outputs.teamMachineId);
  expect(await idsSeenBy(ctx.emu.keys.individual)).toContain(personal);
  expect(await idsSeenBy(ctx.emu.keys.individual)).not.toContain(team);
  expect(await idsSeenBy(ctx.emu.keys.teamAdmin)).toContain(team);
  expect(await idsSeenBy(ctx.emu.keys.teamAdmin)).not.toContain(personal);
  expectExit(await recorded(stack.preview("--expect-no-changes")));
  expectExit(await recorded(stack.refresh()));
  expectExit(await recorded(stack.destroy()));
  const live = liveMachines(await ctx.emulator()).map((m) => m.id);
  expect(live).not.toContain(personal);
  expect(live).not.toContain(team);
  assertNoPlaintextKeys(stack);
});

test("account changed → the machine is replaced: made under the new account, deleted from the old", async () => {
  const stack = await ctx.twoAccountStack(path.join(PROGRAMS, "machine"), { name: "moving" });
  expectExit(await recorded(stack.up()));
  const before = String((await stack.outputs()).machineId);
  expect(await idsSeenBy(ctx.emu.keys.individual)).toContain(before);

  await stack.setConfig({ account: "team", teamId: SEEDED.team, userId: await memberId() });
  const preview = await recorded(stack.preview());
  expectExit(preview);
  expect(steps(preview).find((s) => s.name === "box")?.op).toMatch(/replace/);
  expectExit(await recorded(stack.up()));
  const after = String((await stack.outputs()).machineId);
  expect(after).not.toBe(before);
  expect(await idsSeenBy(ctx.emu.keys.teamAdmin)).toContain(after);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(before);
  expectExit(await recorded(stack.destroy()));
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).not.toContain(after);
  assertNoPlaintextKeys(stack);
});

test("an account that is not configured → preview fails naming it and the configured ones; nothing created", async () => {
  const stack = await ctx.twoAccountStack(path.join(PROGRAMS, "machine"), { account: "personal" });
  const creates = await ctx.received(CREATE);
  const preview = await recorded(stack.preview());
  expect(preview.code).not.toBe(0);
  expect(preview.stdout + preview.stderr).toMatch(
    /account "personal" is not configured \(configured accounts: team\)/,
  );
  expect(await ctx.received(CREATE)).toBe(creates);
  assertNoPlaintextKeys(stack);
});

/** Neither key in the stack's state files, its export, or anything any CLI run printed. */
function assertNoPlaintextKeys(stack: EngineStack): void {
  const keys = [ctx.emu.keys.individual, ctx.emu.keys.teamAdmin];
  const texts = [
    ...stack.stateFiles().map((f) => fs.readFileSync(f, "utf8")),
    ...runs.flatMap((r) => [r.stdout, r.stderr, JSON.stringify(r.events)]),
  ];
  for (const key of keys) for (const text of texts) expect(text.includes(key)).toBe(false);
}

test("stack export of a two-account stack holds no key in plaintext", async () => {
  const stack = await ctx.twoAccountStack(path.join(PROGRAMS, "machine"), {
    account: "team",
    teamId: SEEDED.team,
    userId: await memberId(),
  });
  expectExit(await recorded(stack.up()));
  const exported = JSON.stringify(await stack.export());
  expect(exported.includes(ctx.emu.keys.teamAdmin)).toBe(false);
  expect(exported.includes(ctx.emu.keys.individual)).toBe(false);
  expectExit(await recorded(stack.destroy()));
});
