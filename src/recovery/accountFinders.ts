/**
 * The API lookups of `vmapi-recover-pending`: one client per account the pending creates were
 * made in, built from the settings the state records for it (stackAccounts.ts), the environment
 * filling what a provider lacks, as the provider's own settings do. The keys stay in memory.
 */
import { VmApiClient } from "../client/client";
import { ConfigurationError } from "../client/core/errors";
import type { FinderOf } from "./pendingCreates";
import type { ExportedStack } from "./stackExport";
import type { ResourceFinder } from "./madeByCreate";
import { accountOf, type StackAccount } from "./stackAccounts";

/** Looks resources up by name through the client, in its account (destroyed machines are not listed). */
export function clientFinder(client: VmApiClient, account: string): ResourceFinder {
  return {
    account,
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

/** The finder of each pending create's account, one client per account (keys kept in memory only). */
export function accountFinders(shown: ExportedStack, env: NodeJS.ProcessEnv = process.env): FinderOf {
  const resources = shown.deployment.resources ?? [];
  const finders = new Map<string, ResourceFinder>();
  return (resource) => {
    const account = accountOf(resource, resources);
    if ("unreadable" in account) return account;
    const key = JSON.stringify([account.label, account.settings.apiKey, account.settings.baseUrl]);
    let finder = finders.get(key);
    if (finder === undefined) {
      const client = clientOf(account, env);
      if ("unreadable" in client) return client;
      finder = clientFinder(client, account.label);
      finders.set(key, finder);
    }
    return finder;
  };
}

function clientOf(account: StackAccount, env: NodeJS.ProcessEnv): VmApiClient | { unreadable: string } {
  try {
    return new VmApiClient({ ...account.settings, env });
  } catch (err) {
    if (!(err instanceof ConfigurationError)) throw err;
    // The client's message names the setting, never its value.
    return {
      unreadable: `${account.label} has no usable settings in the state or the environment (${err.message})`,
    };
  }
}
