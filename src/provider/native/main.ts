#!/usr/bin/env node
/**
 * `pulumi-resource-vmapi`: the plugin the engine starts for `vmapi:` resources and functions
 * (plugin/pulumi-resource-vmapi runs node on this file; a release's single executable holds it
 * bundled: tools/plugin/dist.sh). It serves the protocol on a free port
 * of 127.0.0.1 and prints the port on stdout, as the engine expects; its first argument is the
 * engine's address, where progress lines go.
 *
 * An error that escapes every handler (an exception in a timer, a rejection nobody awaited) is
 * logged and the plugin serves on: a dead plugin would fail every operation in flight, and a
 * machine whose create it was running would reach no stack.
 *
 * Only what the port and the plugin's identity need loads before the port is printed: the plugin's
 * own gRPC over HTTP/2 (transport/: Node's `net`, not its `http2`, nor grpc-js), its codec and
 * service definition (providerMessages.ts: no google-protobuf, no generated stubs) and the
 * schema. The provider (the API client, the contract's zod
 * schemas, the resource implementations) loads at the first request that needs it, so the engine
 * gets its first answer sooner, and a process that only answers `GetPluginInfo` and `GetSchema`
 * (the one Pulumi YAML starts to read the schema, `pulumi package get-schema`) never loads it.
 *
 * The same executable, installed under the converter's name (`pulumi-converter-vmapi`, the
 * release's converter tarball), is the converter plugin of `pulumi import --from vmapi`:
 * terraform/converterHook.ts tells by the name (provider/native/servedAs.ts), and serves that
 * instead; the converter's own modules load only then. Installed as the analyzer plugin
 * `policy-vmapi` (`pulumi-analyzer-policy-vmapi`), policy/analyzerHook.ts serves the policy pack.
 */
import { providerService } from "./providerMessages";
import { shippedSchema } from "./schemaFile";
import { startPlugin } from "./start";

startPlugin(shippedSchema, providerService);
