/**
 * `ConvertState` of the converter plugin, without gRPC: the arguments of `pulumi import --from
 * vmapi <state>` in, the resources to import and the diagnostics out. The state is read
 * (terraformState.ts), planned (terraformMapping.ts) and its ids looked up in the API
 * (apiCheck.ts) with the key of the environment (`VMAPI_API_KEY`, else `PAPERSPACE_API_KEY`, the
 * Terraform provider's own). Any problem is an error diagnostic naming the address, and then no
 * resource is answered: the CLI imports nothing. What is left out is a warning each.
 *
 * No diagnostic holds a value of the state (passwords are in it in plain text) or the key: only
 * addresses, ids, types and the API's error messages (which never hold the key).
 */
import { ConfigurationError, VmApiClient, VmApiError } from "../client";
import { unknownIds } from "./apiCheck";
import type { ConvertStateResponse, Diagnostic } from "./converterMessages";
import { planMigration, type MigrationPlan, type MigrationProblem } from "./terraformMapping";
import { lineOf, readTerraformState, TerraformStateError, type TerraformInstance } from "./terraformState";

/** What ConvertState reads from outside: the state file, the environment (the API's settings). */
export interface ConvertStateIo {
  readFile(path: string): string;
  env: Readonly<Record<string, string | undefined>>;
}

const USAGE = "usage: pulumi import --from vmapi <terraform.tfstate | terraform show -json output>";

/** The answer to `ConvertState` with `args`. */
export async function convertState(
  args: readonly string[],
  io: ConvertStateIo,
): Promise<ConvertStateResponse> {
  if (args.length !== 1) {
    return failed([error(`expected one state file, got ${args.length} arguments`, USAGE)]);
  }
  const file = args[0];
  const whole = { filename: file, line: 1 };
  let text: string;
  let instances: TerraformInstance[];
  try {
    text = io.readFile(file);
    instances = readTerraformState(text);
  } catch (err) {
    if (err instanceof TerraformStateError) return failed([error(err.where, err.problem, whole)]);
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined) return failed([error("the state", `cannot be read (${code})`, whole)]);
    throw err;
  }
  const plan = planMigration(instances);
  const place = placeOf(file, text, instances);
  const warnings: Diagnostic[] = [
    ...plan.leftOut.map((l) => ({
      summary: `${l.address} is not imported`,
      detail: l.reason,
      address: l.address,
    })),
    ...plan.notes.map((n) => ({ summary: n.address, detail: n.note, address: n.address })),
  ].map(({ summary, detail, address }) => ({
    severity: 2,
    summary,
    detail,
    subject: place(address) ?? whole,
  }));
  const problems = plan.problems.length > 0 ? plan.problems : await apiProblems(plan, io);
  if (problems.length > 0) {
    const errors = problems.map((p) => error(p.address, p.problem, place(p.address) ?? whole));
    const last = error("nothing imported", `${problems.length} problem(s) above`, whole);
    return failed([...errors, ...warnings, last]);
  }
  return {
    resources: plan.imports.map((r) => ({
      type: r.type,
      name: r.name,
      id: r.id,
      logicalName: r.name,
      inputs: r.inputs,
    })),
    diagnostics: warnings,
  };
}

/** An error: the CLI prints `<file>:<line>,1-1: <summary>; <detail>`. */
function error(summary: string, detail: string, subject?: Diagnostic["subject"]): Diagnostic {
  return { severity: 1, summary, detail, subject };
}

/** An answer with no resource: the CLI prints the diagnostics, then "conversion failed". */
function failed(diagnostics: Diagnostic[]): ConvertStateResponse {
  return { resources: [], diagnostics };
}

/** The place in the state file of an address (undefined for a problem of the whole state). */
function placeOf(file: string, text: string, instances: readonly TerraformInstance[]) {
  const byAddress = new Map(instances.map((i) => [i.address, i]));
  return (address: string): Diagnostic["subject"] => {
    const instance = byAddress.get(address);
    const line = instance === undefined ? undefined : lineOf(text, instance);
    return line === undefined ? undefined : { filename: file, line };
  };
}

/** The ids the API does not know, or the reason they could not be looked up, as problems. */
async function apiProblems(plan: MigrationPlan, io: ConvertStateIo): Promise<MigrationProblem[]> {
  if (plan.imports.length === 0) return [];
  const where = "the API";
  let client: VmApiClient;
  try {
    client = new VmApiClient({ env: io.env });
  } catch (err) {
    // The client's own settings say when the environment has no key; the migration says what to set.
    const noKey = err instanceof ConfigurationError && err.code === "missing_api_key";
    const problem = noKey
      ? "no API key in the environment: set PAPERSPACE_API_KEY (or VMAPI_API_KEY) to the key of the state's account, and VMAPI_BASE_URL for another endpoint; the ids are looked up before anything is imported (docs/migrating-from-terraform.md)"
      : (err as Error).message;
    return [{ address: where, problem }];
  }
  try {
    return await unknownIds(client, plan.imports);
  } catch (err) {
    if (err instanceof VmApiError) return [{ address: where, problem: `listing failed: ${err.message}` }];
    throw err;
  }
}
