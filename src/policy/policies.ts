/**
 * The pack's policies, written once: each one's name, what it checks, its config's JSON schema
 * (GetAnalyzerInfo sends it, and the CLI validates `--policy-pack-config` against it before
 * anything runs) and its check, over the plain values of a resource of either route
 * (`vmapi:index:Machine` and `pulumi-nodejs:dynamic/vmapi:Machine` carry the same input names; the
 * dynamic one's `__provider` is never read). A value still unknown in a preview is never a
 * violation: the check passes over it. Costs are `vmapi-review`'s (review/cost.ts on the one
 * price list, contract/priceList.ts).
 */
import {
  DEDICATED_GPU_MACHINE_TYPES,
  GRID_MACHINE_TYPES,
  MACHINE_TYPES,
  REGIONS,
} from "../contract/constants";
import { DEFAULT_PRICE_LIST } from "../contract/priceList";
import { machineCost, sumCosts, type Cost } from "../review/cost";
import { UNKNOWN } from "../provider/shared/unknown";

/** A resource of this package as a policy sees it: its kind, name, plain inputs and which held a secret. */
export interface PolicyResource {
  kind: string;
  name: string;
  urn: string;
  props: Record<string, unknown>;
  secretKeys: ReadonlySet<string>;
  protect: boolean;
}

/** A policy's configured properties (its schema's, defaults filled in by the CLI). */
export type PolicyParams = Record<string, unknown>;

interface PolicyBase {
  name: string;
  displayName: string;
  description: string;
  /** JSON schemas of the policy's properties (besides `enforcementLevel`). */
  properties: Record<string, Record<string, unknown>>;
}

/** A policy run on each resource (`Analyze`): a message per violation. */
export interface ResourcePolicy extends PolicyBase {
  type: "resource";
  /** The kinds it applies to (`Machine`, `Script`). */
  kinds: readonly string[];
  check(resource: PolicyResource, params: PolicyParams): string | undefined;
}

/**
 * A policy run once on the whole stack (`AnalyzeStack`); it sees only the properties of
 * analyzerMessages.ts's STACK_POLICY_KEYS (a new stack policy adds what it reads there).
 */
export interface StackPolicy extends PolicyBase {
  type: "stack";
  check(resources: readonly PolicyResource[], params: PolicyParams): string | undefined;
}

/** One of the pack's policies. */
export type Policy = ResourcePolicy | StackPolicy;

const GPU_TYPES: ReadonlySet<string> = new Set([...GRID_MACHINE_TYPES, ...DEDICATED_GPU_MACHINE_TYPES]);

/** A known value of `props[key]` (undefined when absent or unknown in the preview). */
function known(props: Record<string, unknown>, key: string): unknown {
  const value = props[key];
  return value === UNKNOWN || value === null ? undefined : value;
}

function names(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
}

const dollars = (n: number) => `$${n.toFixed(2)}`;

/** A machine's monthly cost at list prices (undefined when the preview cannot tell it yet). */
export function monthlyCost(props: Record<string, unknown>): Cost {
  const machineType = known(props, "machineType");
  const billingType = known(props, "billingType");
  const size = known(props, "size");
  const state = known(props, "state");
  if (typeof machineType === "string" && !MACHINE_TYPES.includes(machineType as never))
    return { unknown: `machineType ${machineType}` };
  return machineCost(
    {
      machineType: typeof machineType === "string" ? machineType : undefined,
      billingType: typeof billingType === "string" ? billingType : undefined,
      sizeGb: typeof size === "number" ? size : undefined,
      running: state !== "off",
    },
    DEFAULT_PRICE_LIST,
  );
}

const NAME_LIST = {
  type: "array",
  items: { type: "string" },
  description: "The names of the machines (their resource names) the policy allows.",
};

/** The pack's policies, in the order the docs list them. */
export const POLICIES: readonly Policy[] = [
  {
    type: "resource",
    name: "allowed-regions",
    displayName: "Allowed regions",
    description: "Machines are created only in the regions the stack allows (`regions`).",
    properties: { regions: { type: "array", items: { type: "string", enum: [...REGIONS] } } },
    kinds: ["Machine"],
    check({ props }, { regions }) {
      const allowed = names(regions);
      const region = known(props, "region");
      if (allowed === undefined || typeof region !== "string" || allowed.includes(region)) return undefined;
      return `region "${region}" is not allowed: use one of ${allowed.map((r) => `"${r}"`).join(", ")}`;
    },
  },
  {
    type: "resource",
    name: "allowed-machine-types",
    displayName: "Allowed machine types",
    description: "Machines use only the machine types the stack allows (`machineTypes`).",
    properties: { machineTypes: { type: "array", items: { type: "string", enum: [...MACHINE_TYPES] } } },
    kinds: ["Machine"],
    check({ props }, { machineTypes }) {
      const allowed = names(machineTypes);
      const type = known(props, "machineType");
      if (allowed === undefined || typeof type !== "string" || allowed.includes(type)) return undefined;
      return `machineType "${type}" is not allowed: use one of ${allowed.join(", ")}`;
    },
  },
  {
    type: "resource",
    name: "machine-monthly-cost",
    displayName: "Monthly cost of a machine",
    description:
      "A machine costs at most `maxMonthly` dollars a month at list prices (vmapi-review's: its type's hourly rate × 730 while running, or its monthly rate, plus its disk's tier).",
    properties: { maxMonthly: { type: "number", minimum: 0 } },
    kinds: ["Machine"],
    check({ props }, { maxMonthly }) {
      if (typeof maxMonthly !== "number") return undefined;
      const cost = monthlyCost(props);
      if ("unknown" in cost || cost.monthly <= maxMonthly) return undefined;
      return `costs ${dollars(cost.monthly)} a month (${String(props.machineType)}, ${String(props.billingType)}, ${String(props.size)} GB), above the ceiling of ${dollars(maxMonthly)}: choose a smaller machineType or size, or raise maxMonthly`;
    },
  },
  {
    type: "stack",
    name: "stack-monthly-cost",
    displayName: "Monthly cost of the stack",
    description: "The stack's machines together cost at most `maxMonthly` dollars a month at list prices.",
    properties: { maxMonthly: { type: "number", minimum: 0 } },
    check(resources, { maxMonthly }) {
      if (typeof maxMonthly !== "number") return undefined;
      const machines = resources.filter((r) => r.kind === "Machine");
      const total = sumCosts(machines.map((m) => monthlyCost(m.props)));
      if (total.monthly <= maxMonthly) return undefined;
      const partial = total.unknown > 0 ? ` (${total.unknown} machine(s) not priced yet)` : "";
      return `the stack's ${machines.length} machine(s) cost ${dollars(total.monthly)} a month${partial}, above the ceiling of ${dollars(maxMonthly)}: remove or shrink machines, or raise maxMonthly`;
    },
  },
  {
    type: "resource",
    name: "gpu-shutdown-timeout",
    displayName: "Shutdown timeout on hourly GPU machines",
    description:
      "An hourly-billed GPU machine sets `shutdownTimeoutInHours` (at most `maxHours` when given), so an idle one stops billing.",
    properties: { maxHours: { type: "number", minimum: 1 } },
    kinds: ["Machine"],
    check({ props }, { maxHours }) {
      const type = known(props, "machineType");
      if (known(props, "billingType") !== "hourly" || typeof type !== "string" || !GPU_TYPES.has(type))
        return undefined;
      if (props.shutdownTimeoutInHours === UNKNOWN) return undefined;
      const hours = known(props, "shutdownTimeoutInHours");
      if (typeof hours !== "number")
        return `an hourly ${type} machine needs shutdownTimeoutInHours${typeof maxHours === "number" ? ` (at most ${maxHours})` : ""}: set it so an idle machine stops`;
      if (typeof maxHours === "number" && hours > maxHours)
        return `shutdownTimeoutInHours ${hours} is above ${maxHours}: lower it`;
      return undefined;
    },
  },
  {
    type: "resource",
    name: "no-public-ip",
    displayName: "No public IP unless allowed",
    description:
      "Machines get no public IP (`assignPublicIp`, `dynamicPublicIp`) unless named in `allowedNames`.",
    properties: { allowedNames: NAME_LIST },
    kinds: ["Machine"],
    check({ props, name }, { allowedNames }) {
      const field = ["assignPublicIp", "dynamicPublicIp"].find((k) => known(props, k) === true);
      if (field === undefined || (names(allowedNames) ?? []).includes(name)) return undefined;
      return `${field} is true: remove it, or add "${name}" to this policy's allowedNames`;
    },
  },
  {
    type: "resource",
    name: "protect-machines-with-disks",
    displayName: "Machines with a disk are protected",
    description:
      "A machine (its disk holds data) is `protect`ed, so the engine refuses to delete or replace it, unless named in `allowedNames`. An analyzer is told nothing of a planned delete or replace, so the pack asks for the engine's protection instead.",
    properties: { allowedNames: NAME_LIST },
    kinds: ["Machine"],
    check({ name, protect, props }, { allowedNames }) {
      if (protect || (names(allowedNames) ?? []).includes(name)) return undefined;
      const size = known(props, "size");
      return `the machine's ${typeof size === "number" ? `${size} GB ` : ""}disk could be lost to a delete or replace: set the resource option protect: true, or add "${name}" to this policy's allowedNames`;
    },
  },
  {
    type: "resource",
    name: "script-text-secret",
    displayName: "Scripts never in plain text",
    description:
      "A Script's `scriptText` is a secret (pulumi.secret, fn::secret), so the state never holds it in plain text.",
    properties: {},
    kinds: ["Script"],
    check({ props, secretKeys }) {
      if (!("scriptText" in props) || props.scriptText === UNKNOWN || secretKeys.has("scriptText"))
        return undefined;
      return "scriptText is in plain text: wrap it in a secret (pulumi.secret(...) in a program, fn::secret in YAML)";
    },
  },
];
