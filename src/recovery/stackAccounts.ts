/**
 * The API account a pending create ran under, as the stack's state records it, so that
 * `vmapi-recover-pending` looks it up where it was made and nowhere else. Every resource names its
 * provider (`provider`: `<urn>::<id>`), and the state keeps that provider's inputs:
 * - the TypeScript classes run under the dynamic-provider plugin's provider
 *   (`pulumi:providers:pulumi-nodejs`), whose inputs are the whole stack config: `vmapi:apiKey`,
 *   `vmapi:baseUrl`, and `vmapi:accounts` for a resource that names its `account`
 *   (src/provider/account/accounts.ts reads the same settings);
 * - the plugin's resources run under a `pulumi:providers:vmapi` provider, the default one (from
 *   `vmapi:apiKey`, ...) or a provider resource with its own `apiKey` and `baseUrl`.
 * A setting the provider's inputs lack is read from the environment at call time, as the
 * provider does (`VMAPI_API_KEY`, `VMAPI_BASE_URL`). Keys are secrets: the state holds them
 * encrypted unless the export was made with `--show-secrets`; they are read here in memory and
 * never appear in what this returns to be printed (`label`).
 */
import { plainValue, SHOWN_EXPORT_HINT, type ExportedResource } from "./stackExport";

/** Where a pending create's account is: its settings (a key to use, never to show) and a name for it. */
export interface StackAccount {
  /** Unset fields fall back to the environment, as the provider's own do. */
  settings: { apiKey?: string; baseUrl?: string };
  /** What to call it in a report line: `account "team"`, `provider team`, ... (never a key). */
  label: string;
}

/** Why a pending create's account cannot be read, in a sentence for the person recovering. */
export interface NoAccount {
  unreadable: string;
}

const DYNAMIC_PROVIDER = "pulumi:providers:pulumi-nodejs";
const PLUGIN_PROVIDER = "pulumi:providers:vmapi";

/**
 * The account `resource` (a pending create, its secrets maybe shown) was made in, from its
 * provider among `resources` (the same export's).
 */
export function accountOf(
  resource: ExportedResource,
  resources: readonly ExportedResource[],
): StackAccount | NoAccount {
  const reference = typeof resource.provider === "string" ? resource.provider : "";
  const separator = reference.lastIndexOf("::");
  const [urn, id] = [reference.slice(0, separator), reference.slice(separator + 2)];
  const provider = resources.find((r) => r.urn === urn && r.id === id);
  if (provider === undefined)
    return { unreadable: `its provider (${urn || "none named"}) is not in the export` };
  const inputs = provider.inputs ?? {};
  if (provider.type === PLUGIN_PROVIDER) {
    const name = urn.slice(urn.lastIndexOf("::") + 2);
    const label = name.startsWith("default") ? "the default provider" : `provider ${name}`;
    return settingsOf(label, inputs.apiKey, inputs.baseUrl);
  }
  if (provider.type !== DYNAMIC_PROVIDER)
    return { unreadable: `its provider is of an unknown type, ${provider.type}` };
  const account = plainValue(resource.inputs?.account);
  if (account === "encrypted")
    return { unreadable: `its account's name is encrypted in this export: ${SHOWN_EXPORT_HINT}` };
  if (account.value === undefined || account.value === null) {
    return settingsOf("the default account", inputs["vmapi:apiKey"], inputs["vmapi:baseUrl"]);
  }
  return namedAccount(String(account.value), inputs["vmapi:accounts"], inputs["vmapi:baseUrl"]);
}

/** The account `name` of the stack config's `vmapi:accounts` (its base URL else the config's). */
function namedAccount(name: string, rawAccounts: unknown, baseUrl: unknown): StackAccount | NoAccount {
  const label = `account ${JSON.stringify(name)}`;
  const plain = plainValue(rawAccounts);
  if (plain === "encrypted")
    return { unreadable: `the keys of ${label} are encrypted in this export: ${SHOWN_EXPORT_HINT}` };
  let accounts: unknown = plain.value;
  try {
    if (typeof accounts === "string") accounts = JSON.parse(accounts);
  } catch {
    accounts = undefined;
  }
  const entry =
    typeof accounts === "object" && accounts !== null
      ? (accounts as Record<string, unknown>)[name]
      : undefined;
  if (typeof entry !== "object" || entry === null) {
    const known = typeof accounts === "object" && accounts !== null ? Object.keys(accounts).join(", ") : "";
    return { unreadable: `${label} is not in the stack's vmapi:accounts (configured: ${known || "none"})` };
  }
  const { apiKey, baseUrl: own } = entry as Record<string, unknown>;
  return settingsOf(label, apiKey, own ?? baseUrl);
}

/** The settings of `label` from a key and a base URL as the state holds them. */
function settingsOf(label: string, rawKey: unknown, rawBaseUrl: unknown): StackAccount | NoAccount {
  const key = plainValue(rawKey);
  if (key === "encrypted")
    return { unreadable: `the key of ${label} is encrypted in this export: ${SHOWN_EXPORT_HINT}` };
  const baseUrl = plainValue(rawBaseUrl);
  if (baseUrl === "encrypted")
    return { unreadable: `the base URL of ${label} is encrypted in this export: ${SHOWN_EXPORT_HINT}` };
  return {
    label,
    settings: { apiKey: stringOrUndefined(key.value), baseUrl: stringOrUndefined(baseUrl.value) },
  };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
