/** The converter's codec against the SDK's generated converter_pb (the CLI's side of the wire). */
import {
  decodeConvertStateRequest,
  encodeConvertStateResponse,
} from "../../../src/terraform/converterMessages";

/* eslint-disable @typescript-eslint/no-explicit-any -- the generated stubs come without types */
const converterProto = require("@pulumi/pulumi/proto/converter_pb") as any;

test("ConvertStateRequest encoded by the SDK → its args, the targets passed over", () => {
  const request = new converterProto.ConvertStateRequest();
  request.setMapperTarget("127.0.0.1:1");
  request.setArgsList(["terraform.tfstate", "ünïcode"]);
  request.setLoaderTarget("127.0.0.1:2");
  expect(decodeConvertStateRequest(request.serializeBinary())).toEqual({
    args: ["terraform.tfstate", "ünïcode"],
  });
});

test("ConvertStateResponse → read back by the SDK: resources with inputs, diagnostics with severity and subject", () => {
  const bytes = encodeConvertStateResponse({
    resources: [
      {
        type: "vmapi:index:Machine",
        name: "gpu_0_worker",
        id: "ps1",
        logicalName: "gpu_0_worker",
        inputs: { templateId: "t1" },
      },
      { type: "vmapi:index:Script", name: "setup", id: "sc1", logicalName: "setup" },
    ],
    diagnostics: [
      {
        severity: 2,
        summary: "paperspace_network.private is not imported",
        detail: "why",
        subject: { filename: "a.tfstate", line: 300 },
      },
      { severity: 1, summary: "nothing imported" },
    ],
  });
  const decoded = converterProto.ConvertStateResponse.deserializeBinary(bytes);
  const resources = decoded.getResourcesList().map((r: any) => ({
    type: r.getType(),
    name: r.getName(),
    id: r.getId(),
    logicalName: r.getLogicalName(),
    inputs: r.getInputs()?.toJavaScript(),
  }));
  expect(resources).toEqual([
    {
      type: "vmapi:index:Machine",
      name: "gpu_0_worker",
      id: "ps1",
      logicalName: "gpu_0_worker",
      inputs: { templateId: "t1" },
    },
    { type: "vmapi:index:Script", name: "setup", id: "sc1", logicalName: "setup", inputs: undefined },
  ]);
  const diagnostics = decoded.getDiagnosticsList().map((d: any) => ({
    severity: d.getSeverity(),
    summary: d.getSummary(),
    detail: d.getDetail(),
    subject: d.getSubject() && {
      filename: d.getSubject().getFilename(),
      start: [d.getSubject().getStart().getLine(), d.getSubject().getStart().getColumn()],
      end: [d.getSubject().getEnd().getLine(), d.getSubject().getEnd().getColumn()],
    },
  }));
  expect(diagnostics).toEqual([
    {
      severity: 2,
      summary: "paperspace_network.private is not imported",
      detail: "why",
      subject: { filename: "a.tfstate", start: [300, 1], end: [300, 1] },
    },
    { severity: 1, summary: "nothing imported", detail: "", subject: undefined },
  ]);
});

/* eslint-enable @typescript-eslint/no-explicit-any */
