#!/usr/bin/env node
/**
 * `vmapi-recover-pending`: reads `pulumi stack export` on stdin, writes the repaired export on
 * stdout for `pulumi stack import`, and says on stderr what it did with each pending create.
 * The API key and endpoint come from VMAPI_API_KEY / VMAPI_BASE_URL (as for the client).
 *
 *   pulumi cancel --yes                        # the killed run's lock, if the backend kept one
 *   pulumi stack export > stack.json
 *   VMAPI_API_KEY=... VMAPI_BASE_URL=... npx vmapi-recover-pending < stack.json > repaired.json
 *   pulumi stack import --file repaired.json
 *   pulumi refresh --yes && pulumi up
 */
import { VmApiClient } from "../client/client";
import { resolvePendingCreates, type ExportedStack, type ResourceFinder } from "./pendingCreates";

/** Looks resources up by name through the client (destroyed machines are not listed). */
export function clientFinder(client: VmApiClient): ResourceFinder {
  return {
    async machinesNamed(name) {
      return (await client.machines.list({ name })).map((m) => m.id);
    },
    async scriptsNamed(name) {
      return (await client.scripts.list({ name })).map((s) => s.id);
    },
    async removeScriptsNamed(name) {
      for (const script of await client.scripts.list({ name })) await client.scripts.destroy(script.id);
    },
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(): Promise<void> {
  if (process.argv.includes("--help")) {
    process.stdout.write("Usage: pulumi stack export | vmapi-recover-pending > repaired.json\n");
    return;
  }
  const exported = JSON.parse(await readStdin()) as ExportedStack;
  if (typeof exported?.deployment !== "object")
    throw new Error("stdin is not the output of `pulumi stack export`");
  const { stack, resolutions } = await resolvePendingCreates(exported, clientFinder(new VmApiClient()));
  for (const r of resolutions) process.stderr.write(`${r.outcome.padEnd(7)} ${r.urn}: ${r.reason}\n`);
  if (resolutions.length === 0) process.stderr.write("no pending creates of pulumi-vmapi resources\n");
  process.stdout.write(JSON.stringify(stack, null, 2) + "\n");
}

main().catch((err: unknown) => {
  process.stderr.write(`vmapi-recover-pending: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
