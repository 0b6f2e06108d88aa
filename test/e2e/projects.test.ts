/**
 * What a stack belongs to, on the real engine through `npm run pulumi`: the backend's project and
 * stack names, never the name of the folder a program sits in; and `--program .` runs the
 * program that folder's `Pulumi.yaml` names in `main`.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { REPO, expectExit, steps } from "./support/cli";
import { useE2eContext, liveMachines, PROGRAMS } from "./support/kit";

jest.setTimeout(240_000);

const ctx = useE2eContext();
let root: string;
beforeAll(async () => {
  // Inside the repository (an ignored folder), so the programs resolve pulumi-vmapi and the SDK.
  root = path.join(REPO, ".vmapi", `e2e-projects-${randomBytes(4).toString("hex")}`);
});
afterAll(async () => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** A copy of test/e2e/programs/machine as project `project` in `folder` (relative to root). */
function project(folder: string, project: string): string {
  const dir = path.join(root, folder);
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(PROGRAMS, "machine", "index.ts"), path.join(dir, "index.ts"));
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: ${project}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
  );
  return dir;
}

test("two projects in folders of the same name (a/infra, b/infra), both with stack dev → two stacks; destroying one leaves the other's machine", async () => {
  const key = ctx.emu.keys.individual;
  const web = await ctx.stack(project(path.join("a", "infra"), "web-infra"), key, {}, "dev");
  const ml = await ctx.stack(project(path.join("b", "infra"), "ml-infra"), key, {}, "dev");
  for (const stack of [web, ml]) expectExit(await stack.up());
  const { machineId: webId } = await web.outputs();
  const { machineId: mlId } = await ml.outputs();
  expect(webId).not.toBe(mlId);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toEqual(expect.arrayContaining([webId, mlId]));

  // The second up did not take over or replace the first project's machine; destroy is as scoped.
  expectExit(await web.destroy());
  const live = liveMachines(await ctx.emulator()).map((m) => m.id);
  expect(live).toContain(mlId);
  expect(live).not.toContain(webId);
  expectExit(await ml.preview("--expect-no-changes"));
  expectExit(await ml.destroy());
});

test("--program . from the repository's root → the program of the root Pulumi.yaml's main (examples/quickstart)", async () => {
  const stack = await ctx.stack(REPO, ctx.emu.keys.individual);
  const preview = await ctx.workspace.run(["--program", ".", "preview", "--stack", stack.name], {
    events: true,
  });
  expect(preview.code).toBe(0);
  expect(
    steps(preview)
      .filter((s) => s.op === "create")
      .map((s) => `${s.type.split(":").pop()} ${s.name}`)
      .sort(),
  ).toEqual(expect.arrayContaining(["Machine trainer", "Script setup"]));
});

test("--target one of two machines → only that one is created; stack ls lists the project's stacks", async () => {
  const stack = await ctx.stack(path.join(PROGRAMS, "machines"), ctx.emu.keys.individual, { count: "2" });
  const urn = `urn:pulumi:${stack.name}::vmapi-e2e-machines::pulumi-nodejs:dynamic/vmapi:Machine::worker-1`;
  const up = await stack.up("--target", urn);
  expect(up.code).toBe(0);
  // The engine reports the untargeted new resource as a `same` step that creates nothing.
  expect(
    steps(up)
      .filter((s) => s.op !== "same")
      .map((s) => `${s.op} ${s.name}`),
  ).toEqual(["create worker-1"]);
  const resources = await stack.resources();
  expect(resources.map((r) => r.urn)).toEqual([urn]);
  expect(liveMachines(await ctx.emulator()).map((m) => m.id)).toContain(resources[0].id);

  const ls = await stack.workspace.run(["--program", stack.programDir, "stack", "ls", "--json"]);
  expect(ls.code).toBe(0);
  expect((JSON.parse(ls.stdout) as Array<{ name: string }>).map((s) => s.name)).toContain(stack.name);
  expect((await stack.destroy()).code).toBe(0);
});
