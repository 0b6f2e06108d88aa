/**
 * The pack's policies on plain values (src/policy/policies.ts through policyPack.ts): each one's
 * violation and its absence, a value unknown in the preview never a violation, and costs equal to
 * vmapi-review's (review/cost.ts on the one price list).
 */
import { ENFORCEMENT } from "../../../src/policy/analyzerMessages";
import { monthlyCost } from "../../../src/policy/policies";
import { PolicyPack } from "../../../src/policy/policyPack";
import { machineCost } from "../../../src/review/cost";
import { DEFAULT_PRICE_LIST } from "../../../src/contract/prices";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const MACHINE = {
  region: "Europe (AMS1)",
  machineType: "C4",
  size: 50,
  billingType: "hourly",
  templateId: "tubsrv01",
};

/** The policies a Machine with `props` (and `protect`) violates under `config`. */
function violated(
  config: Record<string, Record<string, unknown>>,
  props: Record<string, unknown>,
  { protect = true, name = "box" } = {},
): string[] {
  const pack = new PolicyPack("1.0.0");
  pack.configure(
    Object.fromEntries(
      Object.entries(config).map(([k, v]) => [k, { enforcementLevel: ENFORCEMENT.mandatory, properties: v }]),
    ),
  );
  return pack
    .analyze({ type: "vmapi:index:Machine", urn: `urn::${name}`, name, properties: props, protect })
    .map((d) => d.policyName);
}

test.each<[string, Record<string, unknown>, Record<string, unknown>, string[]]>([
  ["allowed-regions", { regions: ["Europe (AMS1)"] }, {}, []],
  ["allowed-regions", { regions: ["West Coast (CA1)"] }, {}, ["allowed-regions"]],
  ["allowed-regions", { regions: ["West Coast (CA1)"] }, { region: UNKNOWN }, []],
  ["allowed-regions", {}, {}, []],
  ["allowed-machine-types", { machineTypes: ["C4"] }, {}, []],
  ["allowed-machine-types", { machineTypes: ["C2"] }, {}, ["allowed-machine-types"]],
  ["machine-monthly-cost", { maxMonthly: 40 }, {}, []],
  ["machine-monthly-cost", { maxMonthly: 30 }, {}, ["machine-monthly-cost"]],
  ["machine-monthly-cost", { maxMonthly: 30 }, { state: "off" }, []],
  ["machine-monthly-cost", { maxMonthly: 30 }, { size: UNKNOWN }, []],
  ["gpu-shutdown-timeout", {}, { machineType: "V100" }, ["gpu-shutdown-timeout"]],
  ["gpu-shutdown-timeout", {}, { machineType: "V100", shutdownTimeoutInHours: 1 }, []],
  [
    "gpu-shutdown-timeout",
    { maxHours: 2 },
    { machineType: "V100", shutdownTimeoutInHours: 8 },
    ["gpu-shutdown-timeout"],
  ],
  ["gpu-shutdown-timeout", {}, { machineType: "V100", billingType: "monthly" }, []],
  ["gpu-shutdown-timeout", {}, { machineType: "C9" }, []],
  ["no-public-ip", {}, { dynamicPublicIp: true }, ["no-public-ip"]],
  ["no-public-ip", { allowedNames: ["box"] }, { dynamicPublicIp: true }, []],
  ["no-public-ip", {}, { assignPublicIp: false }, []],
])("%s %j on a machine with %j → %j", (policy, params, overrides, expected) => {
  expect(violated({ [policy]: params }, { ...MACHINE, ...overrides })).toEqual(expected);
});

test("protect-machines-with-disks: unprotected → a violation; protected or named in allowedNames → none", () => {
  const config = { "protect-machines-with-disks": {} };
  expect(violated(config, MACHINE, { protect: false })).toEqual(["protect-machines-with-disks"]);
  expect(violated(config, MACHINE, { protect: true })).toEqual([]);
  expect(
    violated({ "protect-machines-with-disks": { allowedNames: ["box"] } }, MACHINE, { protect: false }),
  ).toEqual([]);
});

test("a disabled policy → never run", () => {
  const pack = new PolicyPack("1.0.0");
  pack.configure({ "no-public-ip": { enforcementLevel: ENFORCEMENT.disabled, properties: {} } });
  const props = { ...MACHINE, assignPublicIp: true };
  expect(
    pack.analyze({ type: "vmapi:index:Machine", urn: "u", name: "box", properties: props, protect: true }),
  ).toEqual([]);
});

test.each([
  ["C4", "hourly", 50],
  ["P5000", "monthly", 250],
  ["V100", "hourly", 2000],
])("monthlyCost of a %s billed %s with %d GB → vmapi-review's", (machineType, billingType, size) => {
  const review = machineCost({ machineType, billingType, sizeGb: size, running: true }, DEFAULT_PRICE_LIST);
  expect(monthlyCost({ machineType, billingType, size })).toEqual(review);
});
