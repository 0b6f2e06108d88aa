/**
 * A plugin process asked what the engine asks a plugin it starts, on the SDK's own gRPC stubs: the
 * port it prints, then `GetPluginInfo`, `GetSchema`, `CheckConfig` and `Configure`; the same
 * executable installed as the converter, its `GetPluginInfo`. For the runs of the release's bundle
 * and executables that tools/plugin makes: the code cache's training run (codeCache.ts) and
 * dist.sh's check of each executable (smokeTest.ts).
 */
import type { ChildProcessByStdio } from "node:child_process";
import * as path from "node:path";
import type { Readable } from "node:stream";

const REPO = path.resolve(__dirname, "..", "..");

/* eslint-disable @typescript-eslint/no-explicit-any -- the SDK's generated stubs come without types we can name here */
const sdkRoot = path.dirname(require.resolve("@pulumi/pulumi/package.json", { paths: [REPO] }));
const fromSdk = (id: string): any => require(require.resolve(id, { paths: [sdkRoot] }));
/* eslint-enable @typescript-eslint/no-explicit-any */

/** A started plugin whose stdout the caller reads (the engine reads the port there). */
export type PluginProcess = ChildProcessByStdio<null, Readable, null | Readable>;

/**
 * The port `child` prints on its first line, as the engine reads it; rejects when it cannot be
 * started or exits first, or after `timeoutMs`.
 */
export function printedPort(child: PluginProcess, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`printed no port in ${timeoutMs / 1000} s`)), timeoutMs);
    const settle = () => clearTimeout(timer);
    child.stdout.on("data", (data: Buffer) => {
      text += data.toString();
      if (!text.includes("\n")) return;
      settle();
      resolve(text.trim());
    });
    child.once("exit", (code, signal) => {
      settle();
      reject(new Error(`exited ${code ?? signal} before printing its port`));
    });
    child.once("error", (err) => {
      settle();
      reject(new Error(`could not be started: ${err.message}`));
    });
  });
}

/** The engine's side of a plugin's gRPC connection, each answer within `timeoutMs`. */
export class PluginClient {
  readonly #client: Record<string, (...args: unknown[]) => void> & { close(): void };
  readonly #proto = fromSdk("@pulumi/pulumi/proto/provider_pb");
  readonly #empty = fromSdk("google-protobuf/google/protobuf/empty_pb");
  readonly #struct = fromSdk("google-protobuf/google/protobuf/struct_pb");

  constructor(
    port: string,
    private readonly timeoutMs: number,
  ) {
    const grpc = fromSdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
    const providerGrpc = fromSdk("@pulumi/pulumi/proto/provider_grpc_pb");
    this.#client = new providerGrpc.ResourceProviderClient(
      `127.0.0.1:${port}`,
      grpc.credentials.createInsecure(),
    );
  }

  /** The version `GetPluginInfo` answers. */
  async pluginVersion(): Promise<string> {
    const info = (await this.#ask("getPluginInfo", new this.#empty.Empty())) as { getVersion(): string };
    return info.getVersion();
  }

  /** The schema's text `GetSchema` answers. */
  async schema(): Promise<string> {
    const answer = (await this.#ask("getSchema", new this.#proto.GetSchemaRequest())) as {
      getSchema(): string;
    };
    return answer.getSchema();
  }

  /** `CheckConfig`, then `Configure`, of `settings` (none by default): what loads the provider. */
  async configure(settings: Record<string, string> = {}): Promise<void> {
    const check = new this.#proto.CheckRequest();
    check.setNews(this.#struct.Struct.fromJavaScript(settings));
    await this.#ask("checkConfig", check);
    const configure = new this.#proto.ConfigureRequest();
    configure.setArgs(this.#struct.Struct.fromJavaScript(settings));
    await this.#ask("configure", configure);
  }

  /**
   * What the engine asks a plugin before a stack's first resource: `GetPluginInfo`, `GetSchema`
   * (Pulumi YAML's host reads it), then `CheckConfig` and `Configure`, which load the provider.
   */
  async throughConfigure(settings: Record<string, string> = {}): Promise<void> {
    await this.pluginVersion();
    await this.schema();
    await this.configure(settings);
  }

  /** `Check` of resource `urn`: its previous inputs and the program's. */
  async check(urn: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<void> {
    const request = new this.#proto.CheckRequest();
    request.setUrn(urn);
    request.setOlds(this.#struct.Struct.fromJavaScript(olds));
    request.setNews(this.#struct.Struct.fromJavaScript(news));
    await this.#ask("check", request);
  }

  /** `Diff` of resource `urn` (`id`): its stored outputs and the checked inputs. */
  async diff(
    urn: string,
    id: string,
    olds: Record<string, unknown>,
    news: Record<string, unknown>,
  ): Promise<void> {
    const request = new this.#proto.DiffRequest();
    request.setUrn(urn);
    request.setId(id);
    request.setOlds(this.#struct.Struct.fromJavaScript(olds));
    request.setNews(this.#struct.Struct.fromJavaScript(news));
    await this.#ask("diff", request);
  }

  /**
   * `Read` of resource `urn` (`id`), as a refresh asks it: its stored outputs and inputs; resolves
   * with what the plugin answers (both empty for a resource that is gone).
   */
  async read(
    urn: string,
    id: string,
    properties: Record<string, unknown>,
    inputs: Record<string, unknown>,
  ): Promise<{ properties: Record<string, unknown>; inputs: Record<string, unknown> }> {
    const request = new this.#proto.ReadRequest();
    request.setUrn(urn);
    request.setId(id);
    request.setProperties(this.#struct.Struct.fromJavaScript(properties));
    request.setInputs(this.#struct.Struct.fromJavaScript(inputs));
    const answer = (await this.#ask("read", request)) as {
      getProperties(): { toJavaScript(): Record<string, unknown> } | undefined;
      getInputs(): { toJavaScript(): Record<string, unknown> } | undefined;
    };
    return {
      properties: answer.getProperties()?.toJavaScript() ?? {},
      inputs: answer.getInputs()?.toJavaScript() ?? {},
    };
  }

  close(): void {
    this.#client.close();
  }

  /** Calls `method` with `request`; resolves with the answer. */
  #ask(method: string, request: unknown): Promise<unknown> {
    const deadline = { deadline: Date.now() + this.timeoutMs };
    return new Promise((resolve, reject) =>
      this.#client[method](request, deadline, (err: Error | null, answer: unknown) =>
        err ? reject(new Error(`answered ${method} with an error: ${err.message}`)) : resolve(answer),
      ),
    );
  }
}

/**
 * The executable installed as the converter (`pulumi-converter-vmapi`): its `Converter` service;
 * or, with `service` `Analyzer`, installed as the policy pack's analyzer (`pulumi-analyzer-policy-vmapi`).
 */
export class ConverterClient {
  readonly #client: import("@grpc/grpc-js").Client;
  readonly #plugin = fromSdk("@pulumi/pulumi/proto/plugin_pb");
  readonly #empty = fromSdk("google-protobuf/google/protobuf/empty_pb");

  constructor(
    port: string,
    private readonly timeoutMs: number,
    private readonly service: "Converter" | "Analyzer" = "Converter",
  ) {
    const grpc = fromSdk("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
    this.#client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  }

  /** The version `/pulumirpc.<service>/GetPluginInfo` answers. */
  pluginVersion(): Promise<string> {
    return new Promise((resolve, reject) =>
      this.#client.makeUnaryRequest(
        `/pulumirpc.${this.service}/GetPluginInfo`,
        (m: { serializeBinary(): Uint8Array }) => Buffer.from(m.serializeBinary()),
        (b: Buffer) =>
          this.#plugin.PluginInfo.deserializeBinary(new Uint8Array(b)) as { getVersion(): string },
        new this.#empty.Empty(),
        { deadline: Date.now() + this.timeoutMs },
        (err, info) =>
          err || !info
            ? reject(new Error(`answered GetPluginInfo with an error: ${err?.message ?? "nothing"}`))
            : resolve(info.getVersion()),
      ),
    );
  }

  close(): void {
    this.#client.close();
  }
}
