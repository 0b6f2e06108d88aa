/**
 * convertState (the converter plugin's answer, without gRPC) against an in-process emulator: the
 * fleet fixture's ids made real, a state whose id the API does not know, no key, bad states; the
 * requests it sends (two listings, whatever the number of machines) and that nothing it answers
 * holds the key or a value of the state.
 */
import * as fs from "fs";
import * as path from "path";
import { VmApiClient } from "../../../src/client/client";
import { convertState } from "../../../src/terraform/convertState";
import type { ConvertStateResponse } from "../../../src/terraform/converterMessages";
import { useTestEmulator } from "../../kit/emulator";
import { MACHINE_BASICS } from "../../kit/machines";
import { SEEDED } from "../../kit/seeded";
import { FLEET_IMPORTED_NAMES } from "../../kit/terraformFleet";

const emu = useTestEmulator();
const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "terraform");
const fleetText = fs.readFileSync(path.join(FIXTURES, "fleet.tfstate"), "utf8");

const env = () => ({ VMAPI_API_KEY: emu.keys.individual, VMAPI_BASE_URL: emu.url });
const client = () => new VmApiClient({ apiKey: emu.keys.individual, baseUrl: emu.url });

/** convertState on `files` (name → text), the first file named in the arguments. */
function convert(files: Record<string, string>, environment: Record<string, string | undefined> = env()) {
  const read = (file: string) => {
    if (!(file in files)) throw Object.assign(new Error(`ENOENT ${file}`), { code: "ENOENT" });
    return files[file];
  };
  return convertState(Object.keys(files).slice(0, 1), { readFile: read, env: environment });
}

async function machine(name: string): Promise<string> {
  const made = await client().machines.create({
    ...MACHINE_BASICS,
    machineName: name,
    templateId: SEEDED.headlessTemplate,
  });
  return made.id;
}

/** The fixture with real ids: two scripts and six machines made in the emulator (once a file). */
let fleet: Promise<string> | undefined;
function realFleet(): Promise<string> {
  fleet ??= makeFleet();
  return fleet;
}

async function makeFleet(): Promise<string> {
  const setup = await client().scripts.create({ scriptName: "it-setup", scriptText: "#!/bin/bash\n" });
  const spare = await client().scripts.create({ scriptName: "it-spare", scriptText: "#!/bin/bash\n" });
  const ids: Record<string, string> = { setup: setup.id, spare: spare.id, template: SEEDED.headlessTemplate };
  for (const key of ["trainer", "box", "fleet_us", "fleet_eu", "gpu0", "gpu1"])
    ids[key] = await machine(`it-${key}`);
  return fleetText.replace(/\{\{(\w+)\}\}/g, (_, key: string) => ids[key]);
}

/** The errors as the CLI prints them (after the place): `<summary>; <detail>`. */
const errors = (answer: ConvertStateResponse) =>
  answer.diagnostics.filter((d) => d.severity === 1).map((d) => `${d.summary}; ${d.detail ?? ""}`);

describe("convertState", () => {
  test("the fleet, every id known → 8 resources, 5 warnings with their places; two listings sent, nothing written", async () => {
    const text = await realFleet();
    const before = (await emu.control.state()).requestCounts;
    const answer = await convert({ "fleet.tfstate": text });
    const after = (await emu.control.state()).requestCounts;
    expect(errors(answer)).toEqual([]);
    expect(answer.resources.map((r) => r.name)).toEqual([...FLEET_IMPORTED_NAMES]);
    expect(answer.resources.every((r) => r.logicalName === r.name && r.id !== "")).toBe(true);
    expect(answer.diagnostics.map((d) => [d.severity, d.summary, d.subject?.filename])).toEqual([
      [2, "data.paperspace_template.ubuntu is not imported", "fleet.tfstate"],
      [2, "data.paperspace_user.me is not imported", "fleet.tfstate"],
      [2, "paperspace_network.private is not imported", "fleet.tfstate"],
      [2, "paperspace_autoscaling_group.pool is not imported", "fleet.tfstate"],
      [2, "aws_s3_bucket.logs is not imported", "fleet.tfstate"],
    ]);
    const sent = Object.fromEntries(
      Object.entries(after)
        .filter(([route, n]) => n !== (before[route] ?? 0))
        .map(([route, n]) => [route, n - (before[route] ?? 0)]),
    );
    expect(sent).toEqual({ "GET /machines/getMachines": 1, "GET /scripts/getScripts": 1 });
    expect(JSON.stringify(answer)).not.toContain(emu.keys.individual);
  });

  test("a state of 200 machines and no script → one listing of machines (no request per machine), in under a second", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push(await machine(`it-many-${i}`));
    const state = {
      version: 4,
      resources: [
        {
          mode: "managed",
          type: "paperspace_machine",
          name: "many",
          provider: 'provider["registry.terraform.io/paperspace/paperspace"]',
          instances: ids.map((id, i) => ({
            index_key: i,
            attributes: { id, template_id: SEEDED.headlessTemplate },
          })),
        },
      ],
    };
    const before = (await emu.control.state()).requestCounts;
    const started = Date.now();
    const answer = await convert({ "many.tfstate": JSON.stringify(state) });
    const took = Date.now() - started;
    const after = (await emu.control.state()).requestCounts;
    expect(errors(answer)).toEqual([]);
    expect(answer.resources.map((r) => r.name)).toEqual(ids.map((_, i) => `many_${i}`));
    expect(after["GET /machines/getMachines"] - before["GET /machines/getMachines"]).toBe(1);
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(total(after) - total(before)).toBe(1);
    expect(took).toBeLessThan(1000);
  });

  test("a machine whose id the API does not know → an error naming its address and line; no resource; the key never shown", async () => {
    const text = (await realFleet()).replace(
      /"id": "ps[a-z0-9]+",\n(\s+)"region"/,
      '"id": "psgone000",\n$1"region"',
    );
    const answer = await convert({ "gone.tfstate": text });
    expect(answer.resources).toEqual([]);
    expect(errors(answer)).toEqual([
      expect.stringMatching(
        /^paperspace_machine\.trainer; the API does not know its id psgone000 \(machine deleted outside Terraform/,
      ),
      "nothing imported; 1 problem(s) above",
    ]);
    expect(answer.diagnostics[0].subject).toEqual({ filename: "gone.tfstate", line: expect.any(Number) });
    expect(answer.diagnostics[0].subject!.line).toBeGreaterThan(1);
    expect(JSON.stringify(answer)).not.toContain(emu.keys.individual);
  });

  test("another account's key → every id unknown, each named", async () => {
    const text = await realFleet();
    const answer = await convert({ "fleet.tfstate": text }, { ...env(), VMAPI_API_KEY: emu.keys.teamAdmin });
    expect(answer.resources).toEqual([]);
    expect(errors(answer)).toHaveLength(9);
    expect(JSON.stringify(answer)).not.toContain(emu.keys.teamAdmin);
  });

  test("no key in the environment → an error saying which variables; nothing listed", async () => {
    const answer = await convert({ "fleet.tfstate": await realFleet() }, { VMAPI_BASE_URL: emu.url });
    expect(answer.resources).toEqual([]);
    expect(errors(answer)[0]).toMatch(
      /^the API; no API key in the environment: set PAPERSPACE_API_KEY \(or VMAPI_API_KEY\)/,
    );
  });

  test("a wrong key → the API's refusal, the key never shown", async () => {
    const answer = await convert(
      { "fleet.tfstate": await realFleet() },
      { ...env(), VMAPI_API_KEY: "not-a-key-0123456789" },
    );
    expect(answer.resources).toEqual([]);
    expect(errors(answer)[0]).toMatch(/^the API; listing failed: /);
    expect(JSON.stringify(answer)).not.toContain("not-a-key-0123456789");
  });

  test.each([
    ["malformed JSON", "{", /^the state; not JSON/],
    ["a newer format version", '{"version": 5}', /^version; state format version 5 is newer/],
    [
      "another provider's state only",
      '{"version":4,"resources":[{"mode":"managed","type":"aws_instance","name":"web","provider":"provider[\\"registry.terraform.io/hashicorp/aws\\"]","instances":[{"attributes":{"id":"i-1"}}]}]}',
      /^the state; it holds no resource of the Paperspace provider/,
    ],
  ])("%s → an error, no resource, no request", async (_, text, message) => {
    const before = (await emu.control.state()).requestCounts;
    const answer = await convert({ "bad.tfstate": text });
    expect(answer.resources).toEqual([]);
    expect(errors(answer)[0]).toMatch(message);
    expect(answer.diagnostics[0].subject).toEqual({ filename: "bad.tfstate", line: 1 });
    expect((await emu.control.state()).requestCounts).toEqual(before);
  });

  test("a missing file or no argument → an error", async () => {
    const missing = await convertState(["nowhere.tfstate"], {
      readFile: (f) => fs.readFileSync(f, "utf8"),
      env: env(),
    });
    expect(errors(missing)).toEqual(["the state; cannot be read (ENOENT)"]);
    const none = await convertState([], { readFile: () => "", env: env() });
    expect(errors(none)).toEqual([
      expect.stringMatching(/^expected one state file, got 0 arguments; usage: pulumi import --from vmapi/),
    ]);
  });
});
