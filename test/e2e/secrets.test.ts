/**
 * Secrets on the real engine: after `up`, `preview`, `refresh` and `destroy` of a stack holding
 * every kind of secret this package handles, none appears in plain text in the backend's files
 * (state, history, backups), in `pulumi stack export` (without --show-secrets), in the stack's
 * config file, or in the engine's logs at `-v=9 --logtostderr` (but for the engine's own property
 * dumps: see PROPERTY_DUMP).
 */
import * as fs from "fs";
import * as path from "path";
import { useE2eContext, PROGRAMS } from "./support/kit";
import { expectExit, type CliRun } from "./support/cli";
import { SEEDED } from "../kit/seeded";

jest.setTimeout(180_000);

const SCRIPT_TEXT = "#!/bin/bash\necho secret-script-body-4f1c\n";
const PASSWORD = "Pa55word-secret-9d2e";

const ctx = useE2eContext();

/**
 * Lines where, at -v=9, CLI v3.259 and the Node SDK dump every property value that crosses a gRPC
 * boundary. They hold plain secrets whatever a provider does: the CLI applies its secret filter
 * to the log format string before the arguments are formatted into it (and only knows config
 * secrets), and the SDK logs RegisterResource responses. An upstream defect; every other line of
 * the verbose logs is checked.
 */
const PROPERTY_DUMP = /(Marshaling|Unmarshaling) property for RPC\[|RPC finished: .*resp: /;

function withoutPropertyDumps(log: string): string {
  return log
    .split("\n")
    .filter((line) => !PROPERTY_DUMP.test(line))
    .join("\n");
}

/** Every file under `dir`, as text. */
function filesUnder(dir: string): Array<[string, string]> {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    return entry.isFile() ? [[full, fs.readFileSync(full, "latin1")] as [string, string]] : [];
  });
}

test("secrets: API key, script text, new-user password and delegation token → in no state file, export, config file or engine log", async () => {
  const stack = await ctx.stack(path.join(PROGRAMS, "secrets"), ctx.emu.keys.teamAdmin, {
    teamId: SEEDED.team,
    scriptText: { secret: SCRIPT_TEXT },
    password: { secret: PASSWORD },
  });
  const verbose = ["-v=9", "--logtostderr", "--logflow"];
  const runs: CliRun[] = [];
  runs.push(expectExit(await stack.up(...verbose)));
  // The token as the program's secret output shows it (the state dump never carries one).
  const token = (await stack.outputs(true)).token as string;
  expect(token).toMatch(/\w{10,}/);
  expect(await stack.outputs()).toMatchObject({ token: "[secret]" });
  expect((await ctx.emulator()).delegations).toHaveLength(1);
  // It is the emulator's token: it authenticates (and may act on its machines alone).
  const asToken = await fetch(`${ctx.emu.url}/users/getUsers`, { headers: { "X-Api-Key": token } });
  expect(asToken.status).toBe(403);

  runs.push(expectExit(await stack.preview(...verbose)));
  runs.push(expectExit(await stack.refresh(...verbose)));
  const exported = (await stack.cli(["stack", "export"])).stdout;
  const configFile = fs.readFileSync(path.join(stack.programDir, `Pulumi.${stack.name}.yaml`), "utf8");
  runs.push(expectExit(await stack.destroy(...verbose)));

  // The logs really are verbose: every run logs at level 9, and the `up`'s has the engine's dumps
  // of the values it marshals, a plain input's among them (so the secrets would be in them if they
  // were anywhere).
  for (const run of runs) expect(run.stderr).toContain('"v":9}');
  expect(runs[0].stderr).toMatch(PROPERTY_DUMP);
  expect(runs[0].stderr).toContain(SEEDED.team);
  const places: Array<[string, string]> = [
    ...filesUnder(path.join(ctx.workspace.dir, "backend")),
    ...filesUnder(ctx.workspace.dir).filter(([file]) => file.includes(`${path.sep}vmapi${path.sep}`)),
    ["stack export", exported],
    ["stack config file", configFile],
    ...runs.flatMap((run, i): Array<[string, string]> => [
      [`run ${i} stdout`, run.stdout],
      [`run ${i} stderr`, withoutPropertyDumps(run.stderr)],
    ]),
  ];
  expect(places.filter(([name]) => name.includes(".pulumi")).length).toBeGreaterThan(2);
  const secrets = {
    apiKey: ctx.emu.keys.teamAdmin,
    scriptText: "secret-script-body-4f1c",
    password: PASSWORD,
    token,
  };
  const leaks = places.flatMap(([where, text]) =>
    Object.entries(secrets)
      .filter(([, value]) => text.includes(value))
      .map(([what]) => `${what} in ${where}`),
  );
  expect(leaks).toEqual([]);
});

test("secrets: a secret input that check refuses (a region that is none, a name with a newline) → preview names the field and the allowed values, never the value", async () => {
  // The program's secret values: SECRET-region-7b3a and "SECRET-name-c91e\nsecond line".
  const stack = await ctx.stack(path.join(PROGRAMS, "badSecrets"), ctx.emu.keys.individual);
  const creates = () => ctx.received("POST /machines/createSingleMachinePublic");
  const createsBefore = await creates();
  const machine = await stack.preview();
  await stack.setConfig({ kind: "script" });
  const script = await stack.preview();
  expect([machine.code, script.code]).toEqual([1, 1]);
  const shownBy = (run: CliRun) => run.stdout + run.stderr + JSON.stringify(run.events);
  expect(shownBy(machine)).toContain(
    "region must be one of: West Coast (CA1), East Coast (NY2), Europe (AMS1) (got a secret value)",
  );
  expect(shownBy(machine)).toMatch(
    /Machine resource 'box' has a problem: name: must not contain control characters/,
  );
  expect(shownBy(script)).toMatch(
    /Script resource 'boot' has a problem: name: must not contain control characters/,
  );
  const shown = shownBy(machine) + shownBy(script);
  const leaks = ["SECRET-region", "SECRET-name", "7b3a", "c91e"].filter((text) => shown.includes(text));
  expect(leaks).toEqual([]);
  expect(await creates()).toBe(createsBefore);
});
