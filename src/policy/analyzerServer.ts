/**
 * The policy plugin's server: Pulumi's `Analyzer` service (`Analyze`, `AnalyzeStack`,
 * `GetAnalyzerInfo`, `Configure`, `GetPluginInfo`, and `Remediate` with no remediation;
 * `Handshake`, `ConfigureStack` and `Cancel` are answered UNIMPLEMENTED, which the CLI takes as
 * "not supported") on a free port of
 * 127.0.0.1, the port printed on stdout as the CLI expects of every plugin. The CLI starts it as
 * `pulumi-analyzer-policy-vmapi <engine> .` in the pack's folder for a pack whose
 * `PulumiPolicy.yaml` says `runtime: vmapi`. It is served on the resource plugin's own unary gRPC
 * (provider/native/transport/grpc.ts), with the version its entry hands in: package.json's under
 * node (analyzerMain.ts), the release's in its single executable (analyzerHook.ts).
 */
import * as fs from "fs";
import type * as net from "net";
import { codecs } from "../provider/native/providerMessages";
import {
  GrpcFailure,
  servedMethod,
  serveUnary,
  Status,
  type UnaryMethod,
} from "../provider/native/transport/grpc";
import {
  decodeAnalyzeRequest,
  decodeAnalyzeStackRequest,
  decodeConfigureRequest,
  encodeAnalyzeResponse,
  encodeAnalyzerInfo,
  type AnalyzedResource,
  type PolicyConfig,
} from "./analyzerMessages";
import { analyzerInfo, PolicyConfigError, PolicyPack } from "./policyPack";

/** The largest request read: AnalyzeStack carries every resource of the stack. */
const MAX_REQUEST_BYTES = 400 * 1024 * 1024;

/** gRPC's INVALID_ARGUMENT: the CLI prints its message as the pack's configuration error. */
const INVALID_ARGUMENT = 3;

/** The service this plugin serves. */
const SERVICE = "pulumirpc.Analyzer";

/** The `Analyzer` service's methods this plugin answers. */
export const ANALYZER_METHODS: Readonly<Record<string, UnaryMethod>> = {
  analyze: servedMethod(SERVICE, "Analyze", decodeAnalyzeRequest, encodeAnalyzeResponse),
  analyzeStack: servedMethod(SERVICE, "AnalyzeStack", decodeAnalyzeStackRequest, encodeAnalyzeResponse),
  getAnalyzerInfo: servedMethod(SERVICE, "GetAnalyzerInfo", codecs.Empty.decode, encodeAnalyzerInfo),
  configure: servedMethod(SERVICE, "Configure", decodeConfigureRequest, codecs.Empty.encode),
  getPluginInfo: servedMethod(SERVICE, "GetPluginInfo", codecs.Empty.decode, codecs.PluginInfo.encode),
  // The engine asks every resource for remediations before it analyzes it: nothing to remediate,
  // answered at once (an UNIMPLEMENTED status costs the engine an error on each resource).
  remediate: servedMethod(SERVICE, "Remediate", codecs.Empty.decode, codecs.Empty.encode),
};

/** The handlers of ANALYZER_METHODS over one pack. */
export function analyzerHandlers(version: string) {
  const pack = new PolicyPack(version);
  return {
    analyze: (request: AnalyzedResource) => pack.analyze(request),
    analyzeStack: (resources: AnalyzedResource[]) => pack.analyzeStack(resources),
    getAnalyzerInfo: () => analyzerInfo(version),
    configure: (config: Record<string, PolicyConfig>) => {
      try {
        pack.configure(config);
      } catch (err) {
        if (err instanceof PolicyConfigError) throw new GrpcFailure(INVALID_ARGUMENT, err.message);
        throw new GrpcFailure(Status.INTERNAL, err instanceof Error ? err.message : String(err));
      }
      return {};
    },
    getPluginInfo: () => ({ version }),
    remediate: () => ({}),
  };
}

/** Serves the analyzer and prints its port on stdout; resolves with the port and the server once printed. */
export async function serveAnalyzer({
  version,
}: {
  version: string;
}): Promise<{ port: number; server: net.Server }> {
  const served = await serveUnary(ANALYZER_METHODS, analyzerHandlers(version), {
    maxReceiveBytes: MAX_REQUEST_BYTES,
  });
  fs.writeSync(1, `${served.port}\n`);
  return served;
}
