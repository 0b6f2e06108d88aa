/** readTerraformState: both forms of a state to one list of instances; bad input named by its field. */
import * as fs from "fs";
import * as path from "path";
import { lineOf, parseModulePath, readTerraformState } from "../../../src/terraform/terraformState";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "terraform");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");

describe("readTerraformState", () => {
  test("state file, version 4 → every instance with its address, module steps and key", () => {
    const instances = readTerraformState(fixture("fleet.tfstate"));
    expect(instances.map((i) => i.address)).toEqual([
      "data.paperspace_template.ubuntu",
      "data.paperspace_user.me",
      "paperspace_network.private",
      "paperspace_script.setup",
      "paperspace_script.spare",
      "paperspace_machine.trainer",
      "paperspace_machine.box",
      'paperspace_machine.fleet["us-east"]',
      'paperspace_machine.fleet["eu.ams"]',
      "paperspace_autoscaling_group.pool",
      "aws_s3_bucket.logs",
      "module.gpu[0].paperspace_machine.worker",
      "module.gpu[1].paperspace_machine.worker",
    ]);
    const worker = instances.find((i) => i.address === "module.gpu[1].paperspace_machine.worker")!;
    expect(worker).toMatchObject({ modules: [{ name: "gpu", key: 1 }], key: undefined, mode: "managed" });
    expect(worker.provider).toBe("registry.terraform.io/paperspace/paperspace");
    expect(instances.find((i) => i.name === "trainer")!.attributes.script_id).toBe("{{setup}}");
  });

  test("show -json of the same state → the same instances", () => {
    const fromFile = readTerraformState(fixture("fleet.tfstate"));
    const fromShow = readTerraformState(fixture("fleet.show.json"));
    const key = (i: { address: string }) => i.address;
    expect(fromShow.map(key).sort()).toEqual(fromFile.map(key).sort());
    for (const shown of fromShow) {
      const filed = fromFile.find((i) => i.address === shown.address)!;
      expect(shown).toEqual(filed);
    }
  });

  test("show -json of an empty state (no values) → no instances", () => {
    expect(readTerraformState('{"format_version":"1.0"}')).toEqual([]);
  });

  test.each([
    ["not JSON", "{", /^the state: not JSON/],
    ["an array", "[]", /^the state: not a JSON object/],
    ["neither form", '{"serial": 1}', /neither a state file.*nor `terraform show -json`/],
    [
      "a newer state format",
      '{"version": 5, "resources": []}',
      /^version: state format version 5 is newer than 4/,
    ],
    [
      "an older state format",
      '{"version": 3, "modules": []}',
      /^version: state format version 3 is older than 4/,
    ],
    ["a newer show -json format", '{"format_version": "2.0"}', /^format_version: .*2\.0 is not 1\.x/],
    [
      "an instance without attributes",
      '{"version":4,"resources":[{"mode":"managed","type":"paperspace_machine","name":"a","provider":"p","instances":[{}]}]}',
      /^resources\[0\]\.instances\[0\]\.attributes: /,
    ],
    [
      "a resource of an unknown mode",
      '{"version":4,"resources":[{"mode":"ephemeral","type":"x","name":"a","provider":"p","instances":[]}]}',
      /^resources\[0\]\.mode: /,
    ],
  ])("%s → TerraformStateError naming the field", (_, text, message) => {
    expect(() => readTerraformState(text)).toThrow(message);
  });

  test("a password in a malformed state → never in the error", () => {
    const text =
      '{"version":4,"resources":[{"mode":"managed","type":"paperspace_machine","name":"a","provider":"p","instances":[{"index_key":{"k":"hunter2-secret"},"attributes":{"password":"hunter2-secret"}}]}]}';
    let message = "";
    try {
      readTerraformState(text);
    } catch (err) {
      message = String(err);
    }
    expect(message).toMatch(/resources\[0\]\.instances\[0\]\.index_key/);
    expect(message).not.toContain("hunter2");
  });
});

describe("parseModulePath", () => {
  test('module.a[0].module.b["x.y"] → its steps', () => {
    expect(parseModulePath('module.a[0].module.b["x.y"]')).toEqual([
      { name: "a", key: 0 },
      { name: "b", key: "x.y" },
    ]);
  });
  test("not a module address → TerraformStateError", () => {
    expect(() => parseModulePath("modules.a")).toThrow(/not a module address/);
  });
});

describe("lineOf", () => {
  test("each instance of both forms → the line its resource starts on", () => {
    for (const name of ["fleet.tfstate", "fleet.show.json"]) {
      const text = fixture(name);
      const lines = text.split("\n");
      for (const instance of readTerraformState(text)) {
        const line = lineOf(text, instance);
        expect(line).toBeDefined();
        expect(lines.slice(line! - 1, line! + 5).join("\n")).toContain(`"${instance.name}"`);
      }
    }
  });
});
