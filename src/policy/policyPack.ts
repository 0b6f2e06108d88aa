/**
 * The pack as the analyzer serves it: its info (policies, config schemas, default levels), its
 * configuration (`Configure`: the CLI's reconciled `--policy-pack-config`, refused when it names a
 * policy or a property the pack does not have, which the CLI's schema check lets through), and
 * the diagnostics of a resource (`Analyze`) or of the stack (`AnalyzeStack`). Every policy is
 * advisory until configured otherwise; a policy whose limit is not configured (`regions`,
 * `machineTypes`, `maxMonthly`) checks nothing.
 */
import { kindOfType } from "../contract/typeTokens";
import { fromWire } from "../provider/native/wireValues";
import {
  ENFORCEMENT,
  type AnalyzedResource,
  type AnalyzerInfo,
  type Diagnostic,
  type PolicyConfig,
} from "./analyzerMessages";
import { POLICIES, type Policy, type PolicyParams, type PolicyResource } from "./policies";

/** The pack's name, as the CLI prints it beside each violation. */
export const PACK_NAME = "vmapi";

/** A configuration the pack refuses (the CLI reports it before anything runs). */
export class PolicyConfigError extends Error {
  override readonly name = "PolicyConfigError";
}

/** A policy's level and parameters as configured. */
interface Configured {
  level: number;
  params: PolicyParams;
}

/** What GetAnalyzerInfo answers for `version`. */
export function analyzerInfo(version: string, policies: readonly Policy[] = POLICIES): AnalyzerInfo {
  return {
    name: PACK_NAME,
    displayName: "pulumi-vmapi machine policies",
    version,
    description:
      "Regions, machine types, costs, shutdown timeouts, public IPs, protection and secret scripts of vmapi machines.",
    policies: policies.map((p) => ({
      name: p.name,
      displayName: p.displayName,
      description: p.description,
      enforcementLevel: ENFORCEMENT.advisory,
      configSchema: { properties: p.properties },
      policyType: p.type === "resource" ? 1 : 2,
    })),
  };
}

/** The resource of this package in `r`, as policies see it, or undefined for another provider's. */
function policyResource(r: AnalyzedResource): PolicyResource | undefined {
  const kind = kindOfType(r.type);
  if (kind === undefined) return undefined;
  const { props, secretKeys } = fromWire(r.properties);
  return { kind, name: r.name, urn: r.urn, props, secretKeys, protect: r.protect };
}

/** The pack, configured (every policy advisory until `configure`). */
export class PolicyPack {
  private configured = new Map<string, Configured>();

  constructor(
    private readonly version: string,
    private readonly policies: readonly Policy[] = POLICIES,
  ) {
    for (const p of policies) this.configured.set(p.name, { level: ENFORCEMENT.advisory, params: {} });
  }

  /**
   * Takes the CLI's configuration (every policy's, defaults filled in).
   * @throws PolicyConfigError for a policy or a property the pack does not have
   */
  configure(config: Readonly<Record<string, PolicyConfig>>): void {
    const problems: string[] = [];
    const next = new Map(this.configured);
    for (const [name, c] of Object.entries(config)) {
      const policy = this.policies.find((p) => p.name === name);
      if (policy === undefined) {
        if (name !== "all")
          problems.push(
            `unknown policy "${name}" (the pack has: ${this.policies.map((p) => p.name).join(", ")})`,
          );
        continue;
      }
      const unknownKeys = Object.keys(c.properties).filter((k) => !(k in policy.properties));
      for (const key of unknownKeys) {
        const known = Object.keys(policy.properties);
        problems.push(
          `${name}: unknown property "${key}" (${known.length > 0 ? `it takes: ${known.join(", ")}` : "it takes none"})`,
        );
      }
      next.set(name, { level: c.enforcementLevel, params: c.properties });
    }
    if (problems.length > 0)
      throw new PolicyConfigError(`the vmapi policy pack's config: ${problems.join("; ")}`);
    this.configured = next;
  }

  /** The violations of one resource (`Analyze`). */
  analyze(request: AnalyzedResource): Diagnostic[] {
    const resource = policyResource(request);
    if (resource === undefined) return [];
    const diagnostics: Diagnostic[] = [];
    for (const policy of this.policies) {
      if (policy.type !== "resource" || !policy.kinds.includes(resource.kind)) continue;
      const { level, params } = this.configured.get(policy.name)!;
      if (level === ENFORCEMENT.disabled) continue;
      const message = policy.check(resource, params);
      if (message !== undefined) diagnostics.push(this.diagnostic(policy, level, message, resource.urn));
    }
    return diagnostics;
  }

  /** The violations of the stack's policies (`AnalyzeStack`), over every resource after the update. */
  analyzeStack(requests: readonly AnalyzedResource[]): Diagnostic[] {
    const resources = requests.map(policyResource).filter((r): r is PolicyResource => r !== undefined);
    const diagnostics: Diagnostic[] = [];
    for (const policy of this.policies) {
      if (policy.type !== "stack") continue;
      const { level, params } = this.configured.get(policy.name)!;
      if (level === ENFORCEMENT.disabled) continue;
      const message = policy.check(resources, params);
      if (message !== undefined) diagnostics.push(this.diagnostic(policy, level, message));
    }
    return diagnostics;
  }

  private diagnostic(policy: Policy, level: number, message: string, urn?: string): Diagnostic {
    return {
      policyName: policy.name,
      policyPackName: PACK_NAME,
      policyPackVersion: this.version,
      description: policy.description,
      message,
      enforcementLevel: level,
      urn,
    };
  }
}
