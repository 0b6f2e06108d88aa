/** planMigration and the names: what a state becomes, what is left out and why, what stops it. */
import * as fs from "fs";
import * as path from "path";
import { distinctNames, identifier } from "../../../src/terraform/logicalNames";
import { planMigration } from "../../../src/terraform/terraformMapping";
import { readTerraformState, type TerraformInstance } from "../../../src/terraform/terraformState";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "terraform");
const fleet = () => readTerraformState(fs.readFileSync(path.join(FIXTURES, "fleet.tfstate"), "utf8"));

function instance(over: Partial<TerraformInstance> & { type: string; name: string }): TerraformInstance {
  return {
    address: `${over.type}.${over.name}`,
    mode: "managed",
    modules: [],
    provider: "registry.terraform.io/paperspace/paperspace",
    attributes: { id: `id-${over.name}` },
    ...over,
  };
}

describe("planMigration", () => {
  test("the fleet fixture → 6 machines and 2 scripts under their addresses' names; 5 left out, each with its reason; no problem", () => {
    const plan = planMigration(fleet());
    expect(plan.problems).toEqual([]);
    expect(plan.imports.map((r) => [r.address, r.type, r.name, r.id])).toEqual([
      ["paperspace_script.setup", "vmapi:index:Script", "setup", "{{setup}}"],
      ["paperspace_script.spare", "vmapi:index:Script", "spare", "{{spare}}"],
      ["paperspace_machine.trainer", "vmapi:index:Machine", "trainer", "{{trainer}}"],
      ["paperspace_machine.box", "vmapi:index:Machine", "box", "{{box}}"],
      ['paperspace_machine.fleet["us-east"]', "vmapi:index:Machine", "fleet_us_east", "{{fleet_us}}"],
      ['paperspace_machine.fleet["eu.ams"]', "vmapi:index:Machine", "fleet_eu_ams", "{{fleet_eu}}"],
      ["module.gpu[0].paperspace_machine.worker", "vmapi:index:Machine", "gpu_0_worker", "{{gpu0}}"],
      ["module.gpu[1].paperspace_machine.worker", "vmapi:index:Machine", "gpu_1_worker", "{{gpu1}}"],
    ]);
    expect(plan.leftOut.map((l) => l.address)).toEqual([
      "data.paperspace_template.ubuntu",
      "data.paperspace_user.me",
      "paperspace_network.private",
      "paperspace_autoscaling_group.pool",
      "aws_s3_bucket.logs",
    ]);
    const reason = (address: string) => plan.leftOut.find((l) => l.address === address)!.reason;
    expect(reason("paperspace_network.private")).toMatch(/no Network resource/);
    expect(reason("paperspace_autoscaling_group.pool")).toMatch(/no autoscaling groups/);
    expect(reason("aws_s3_bucket.logs")).toMatch(
      /another provider \(registry.terraform.io\/hashicorp\/aws\)/,
    );
    expect(reason("data.paperspace_template.ubuntu")).toMatch(/data source.*getTemplates/);
  });

  test("a machine → its template as the one input Read may not tell; nothing else of the state (no password)", () => {
    const plan = planMigration([
      instance({
        type: "paperspace_machine",
        name: "m",
        attributes: { id: "ps1", template_id: "t1", password: "hunter2", script_id: "s1" },
      }),
    ]);
    expect(plan.imports[0].inputs).toEqual({ templateId: "t1" });
  });

  test("a state of another provider only → a problem naming the state; nothing to import", () => {
    const plan = planMigration([instance({ type: "aws_instance", name: "web", provider: "hashicorp/aws" })]);
    expect(plan.imports).toEqual([]);
    expect(plan.problems).toEqual([
      { address: "the state", problem: expect.stringMatching(/no resource of the Paperspace provider/) },
    ]);
  });

  test("an empty state → a problem", () => {
    expect(planMigration([]).problems[0].problem).toMatch(/no resources/);
  });

  test("a machine without an id → a problem naming its address", () => {
    const plan = planMigration([instance({ type: "paperspace_machine", name: "m", attributes: {} })]);
    expect(plan.problems).toEqual([
      { address: "paperspace_machine.m", problem: expect.stringMatching(/no `id`/) },
    ]);
  });

  test("one id at two addresses → a problem naming the second and the first", () => {
    const plan = planMigration([
      instance({ type: "paperspace_machine", name: "a", attributes: { id: "ps1" } }),
      instance({ type: "paperspace_machine", name: "b", attributes: { id: "ps1" } }),
    ]);
    expect(plan.problems).toEqual([
      { address: "paperspace_machine.b", problem: "its id ps1 is also paperspace_machine.a's" },
    ]);
  });

  test("a deposed object and an unknown type of the provider → left out with their reasons, never dropped", () => {
    const plan = planMigration([
      instance({ type: "paperspace_machine", name: "a", status: "deposed" }),
      instance({ type: "paperspace_job", name: "j" }),
      instance({
        type: "paperspace_job_storage",
        name: "s",
        mode: "data",
        address: "data.paperspace_job_storage.s",
      }),
    ]);
    expect(plan.imports).toEqual([]);
    expect(plan.leftOut).toEqual([
      { address: "paperspace_machine.a", reason: expect.stringMatching(/deposed/) },
      { address: "paperspace_job.j", reason: expect.stringMatching(/not a type this migration knows/) },
      { address: "data.paperspace_job_storage.s", reason: expect.stringMatching(/no job storage/) },
    ]);
  });
});

test("planMigration: a tainted machine → imported, with a note saying Terraform would have replaced it", () => {
  const plan = planMigration([instance({ type: "paperspace_machine", name: "t", status: "tainted" })]);
  expect(plan.imports.map((r) => r.address)).toEqual(["paperspace_machine.t"]);
  expect(plan.notes).toEqual([{ address: "paperspace_machine.t", note: expect.stringMatching(/tainted/) }]);
});

describe("names", () => {
  test.each([
    ["gpu-box", "gpu_box"],
    ["us-east.1", "us_east_1"],
    ["0abc", "r_0abc"],
    ["__", "r"],
    ["ok_Name", "ok_Name"],
  ])("identifier(%p) → %p", (text, name) => {
    expect(identifier(text)).toBe(name);
  });

  test("a machine and a script of one name, and two addresses that read the same → distinct names", () => {
    const instances = [
      instance({ type: "paperspace_machine", name: "web" }),
      instance({ type: "paperspace_script", name: "web" }),
      instance({ type: "paperspace_machine", name: "a-b" }),
      instance({ type: "paperspace_machine", name: "a_b" }),
      instance({ type: "paperspace_machine", name: "a_b_machine" }),
    ];
    const names = distinctNames(instances, (i) => i.type.replace("paperspace_", ""));
    expect(names).toEqual(["web_machine", "web_script", "a_b_machine", "a_b_machine_2", "a_b_machine_3"]);
    expect(new Set(names).size).toBe(names.length);
  });

  test("count and for_each keys in modules and resources → their keys in the name", () => {
    const names = distinctNames(
      [
        instance({ type: "paperspace_machine", name: "w", modules: [{ name: "gpu", key: 2 }], key: "eu" }),
        instance({ type: "paperspace_machine", name: "w", modules: [{ name: "gpu", key: "x/y" }], key: 0 }),
      ],
      () => "machine",
    );
    expect(names).toEqual(["gpu_2_w_eu", "gpu_x_y_w_0"]);
  });
});
