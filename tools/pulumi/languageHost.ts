/**
 * Hosts a Pulumi program in this process with the SDK's own language server, the way Automation
 * API inline programs run: the CLI is then started with `--client=<address>` and asks this
 * server to run the program (the CLI that tools/pulumi-cli/build.sh builds ships no language host).
 *
 * The SDK is loaded from the program's folder, so the program and the server share one copy of
 * `@pulumi/pulumi` (its runtime state is per module instance).
 */
import * as fs from "fs";
import * as path from "path";
import { sdkDir } from "./environment";

/** What this file uses of the SDK's own @grpc/grpc-js (loaded from the SDK's folder at run time). */
interface GrpcModule {
  Server: new (options: object) => {
    addService(service: unknown, implementation: object): void;
    bindAsync(address: string, credentials: unknown, done: (err: Error | null, port: number) => void): void;
    forceShutdown(): void;
  };
  ServerCredentials: { createInsecure(): unknown };
}

/** A running language server. */
export interface LanguageHost {
  /** `127.0.0.1:<port>`, for the CLI's `--client`. */
  address: string;
  /** Stops the server once the CLI has exited. */
  close(failed: boolean): void;
}

/** What Pulumi.yaml says of where the program starts; only `main` matters here. */
export function programEntry(programDir: string): string | undefined {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(programDir, f)).find(fs.existsSync);
  if (file === undefined) return undefined;
  const main = /^main:\s*(.+?)\s*$/m.exec(fs.readFileSync(file, "utf8"))?.[1];
  return path.resolve(programDir, unquote(main ?? "."));
}

/** The project's runtime as Pulumi.yaml names it (`runtime: yaml`, or `runtime: { name: nodejs }`). */
export function projectRuntime(programDir: string): string | undefined {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => path.join(programDir, f)).find(fs.existsSync);
  if (file === undefined) return undefined;
  const text = fs.readFileSync(file, "utf8");
  const inline = /^runtime:[ \t]*([^\s#]+)/m.exec(text)?.[1];
  if (inline !== undefined) return unquote(inline);
  return /^runtime:\s*\n\s+name:\s*([^\s#]+)/m.exec(text)?.[1];
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}

/**
 * Loads the program as the Node language host does: its exports become the stack's outputs, and
 * an exported function (or default export) is called and its result used instead. Every run
 * starts from freshly loaded program modules: the CLI runs the program twice in one `up`
 * (preview, then update), and a module already in `require.cache` would register nothing the
 * second time. Installed packages stay loaded: the SDK's runtime state lives in its modules.
 */
export function programRunner(entry: string): () => Promise<unknown> {
  const loadedBefore = new Set(Object.keys(require.cache));
  const isProgramModule = (key: string) =>
    !loadedBefore.has(key) && !key.includes(`${path.sep}node_modules${path.sep}`);
  return async () => {
    for (const key of Object.keys(require.cache)) if (isProgramModule(key)) delete require.cache[key];
    const exported = require(entry) as unknown;
    const main =
      typeof exported === "function" ? exported : (exported as { default?: unknown } | null)?.default;
    return typeof main === "function" ? await (main as () => unknown)() : exported;
  };
}

/** Starts the SDK's language server for `entry`, with the SDK of `programDir`. */
export async function startLanguageHost(programDir: string, entry: string): Promise<LanguageHost> {
  const sdk = sdkDir(programDir);
  const load = (id: string) => require(require.resolve(id, { paths: [sdk] }));
  const grpc = load("@grpc/grpc-js") as GrpcModule;
  const { LanguageServer } = load(path.join(sdk, "automation", "server"));
  const services = load(path.join(sdk, "proto", "language_grpc_pb"));
  const { grpcChannelOptions } = load(path.join(sdk, "runtime"));

  const server = new grpc.Server(grpcChannelOptions);
  const languageServer = new LanguageServer(programRunner(entry));
  server.addService(services.LanguageRuntimeService, languageServer);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    close(failed) {
      server.forceShutdown();
      // Reports promises the program left unresolved, as the Automation API does after a success.
      languageServer.onPulumiExit(failed);
    },
  };
}
