/**
 * The type tokens the engine knows this package's resources and functions by, written once: the
 * TypeScript classes' (`pulumi-nodejs:dynamic/vmapi:Machine`, served by the SDK's dynamic
 * provider) and the plugin's (`vmapi:index:Machine`, `vmapi:index:getTemplates`). The classes,
 * the plugin and its schema, `vmapi-review` and `vmapi-recover-pending` read them here.
 */

/** What the TypeScript classes' type tokens start with. */
export const DYNAMIC_TYPE_PREFIX = "pulumi-nodejs:dynamic/vmapi:";
/** What the plugin's tokens (resources, functions, types) start with. */
export const PLUGIN_TOKEN_PREFIX = "vmapi:index:";

/** The type of the TypeScript class of resource `kind`. */
export function dynamicType<K extends string>(kind: K): `pulumi-nodejs:dynamic/vmapi:${K}` {
  return `${DYNAMIC_TYPE_PREFIX}${kind}`;
}

/** The plugin's token of resource, function or type `name`. */
export function pluginToken<K extends string>(name: K): `vmapi:index:${K}` {
  return `${PLUGIN_TOKEN_PREFIX}${name}`;
}

/** The name in a plugin token (`vmapi:index:getUsers` → `getUsers`), or undefined for any other token. */
export function pluginName(token: string): string | undefined {
  return token.startsWith(PLUGIN_TOKEN_PREFIX) ? token.slice(PLUGIN_TOKEN_PREFIX.length) : undefined;
}

/** The kind (`Machine`) of a resource type of either route, or undefined for another provider's type. */
export function kindOfType(type: string): string | undefined {
  return type.startsWith(DYNAMIC_TYPE_PREFIX) ? type.slice(DYNAMIC_TYPE_PREFIX.length) : pluginName(type);
}
