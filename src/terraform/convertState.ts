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
import { VmApiClient, VmApiError } from "../client";
import { unknownIds } from "./apiCheck";
import type { ConvertStateResponse, Diagnostic } from "./converterMessages";
import { planMigration, type MigrationPlan } from "./terraformMapping";
import { readTerraformState, TerraformStateError } from "./terraformState";

/** What ConvertState reads from outside: the state file, the environment (the API's settings). */
export interface ConvertStateIo {
  readFile(path: string): string;
  env: Readonly<Record<string, string | undefined>>;
}

const USAGE = "usage: pulumi import --from vmapi <terraform.tfstate | terraform show -json output>";

function error(summary: string, detail?: string): Diagnostic {
  return { severity: 1, summary, detail };
}

/** The answer to `ConvertState` with `args`. */
export async function convertState(
  args: readonly string[],
  io: ConvertStateIo,
): Promise<ConvertStateResponse> {
  if (args.length !== 1)
    return {
      resources: [],
      diagnostics: [error(`expected one state file, got ${args.length} arguments`, USAGE)],
    };
  const file = args[0];
  let plan: MigrationPlan;
  try {
    plan = planMigration(readTerraformState(io.readFile(file)));
  } catch (err) {
    if (err instanceof TerraformStateError) {
      return { resources: [], diagnostics: [error(`${file}: ${err.where}: ${err.problem}`)] };
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== undefined)
      return { resources: [], diagnostics: [error(`${file}: cannot be read (${code})`)] };
    throw err;
  }
  const warnings: Diagnostic[] = plan.leftOut.map((l) => ({
    severity: 2,
    summary: `${l.address} is not imported: ${l.reason}`,
  }));
  const problems = plan.problems.length > 0 ? plan.problems : await apiProblems(plan, io);
  if (problems.length > 0) {
    return {
      resources: [],
      diagnostics: [
        ...problems.map((p) => error(`${p.address}: ${p.problem}`)),
        ...warnings,
        error(`nothing imported: ${problems.length} problem(s) in ${file}`),
      ],
    };
  }
  return {
    resources: plan.imports.map((r) => ({
      type: r.type,
      name: r.name,
      id: r.id,
      logicalName: r.name,
      properties: r.properties,
      inputs: r.inputs,
    })),
    diagnostics: warnings,
  };
}

/** The ids the API does not know, or the reason they could not be looked up, as problems. */
async function apiProblems(plan: MigrationPlan, io: ConvertStateIo): Promise<MigrationPlan["problems"]> {
  if (plan.imports.length === 0) return [];
  const where = "the API";
  let client: VmApiClient;
  try {
    client = new VmApiClient({ env: io.env });
  } catch (err) {
    return [
      {
        address: where,
        problem: `${(err as Error).message}: the ids are looked up before anything is imported (docs/migrating-from-terraform.md)`,
      },
    ];
  }
  try {
    return await unknownIds(client, plan.imports);
  } catch (err) {
    if (err instanceof VmApiError) return [{ address: where, problem: `listing failed: ${err.message}` }];
    throw err;
  }
}
