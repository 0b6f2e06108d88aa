/**
 * The template of a machine read by its id alone (`pulumi import`, `Machine.get`): the API never
 * reports a machine's template, but it reports the machine's `os`, which is its template's. When
 * exactly one template the key can see has that OS (and the machine's region, or none), that is the
 * template, and the program `pulumi import` prints declares it. Otherwise nothing is guessed: a
 * machine that exists may be declared without `templateId` (machineCheck.ts).
 */
import type { VmApiClient } from "../../client/client";
import type { Machine as ApiMachine } from "../../contract/schemas";

/** `{ templateId }` when the machine's template can be told, else `{}`. */
export async function importedTemplate(
  client: VmApiClient,
  machine: ApiMachine,
): Promise<{ templateId?: string }> {
  if (!machine.os) return {};
  const templates = await client.templates.list({ os: machine.os });
  const fits = templates.filter(
    (t) => t.os === machine.os && (t.region == null || t.region === machine.region),
  );
  return fits.length === 1 ? { templateId: fits[0].id } : {};
}
