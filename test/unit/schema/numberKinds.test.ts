/**
 * How the schema generator tells an `integer` from a `number` (tools/schema/numberKinds.ts): from
 * the zod field a property's declaration leads to, through `z.infer` types, `X["field"]` and a
 * resource's models, never from a list; and it refuses to guess.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { NumberKinds } from "../../../tools/schema/numberKinds";
import { REPO, SourceProgram } from "../../../tools/schema/sourceProgram";
import { useTempDirs } from "../../kit/tempDirs";

// The probe lives in the system's temp folder, never in the repository, where a crash of this
// file would leave it for the linters and the type check to trip on; removed after the last test.
const tempDir = useTempDirs();

/**
 * A module of its own, outside the repository; its path as SourceProgram and NumberKinds take
 * one, relative to the repository (NumberKinds requires the files it reads).
 */
function moduleFile(text: string): string {
  const full = path.join(tempDir("vmapi-number-kinds-"), "probe.ts");
  fs.writeFileSync(full, text);
  return path.relative(REPO, full);
}

// From outside the repository no node_modules is above the probe: it imports the repository's
// zod by its folder, the same module (and classes) NumberKinds itself loads.
const ZOD = path.join(REPO, "node_modules", "zod");

const PROBE = `
import { z } from ${JSON.stringify(ZOD)};
export const RequestSchema = z.object({
  size: z.number().int().positive(),
  ratio: z.number(),
  nested: z.object({ seconds: z.number().int() }),
});
export type Request = z.infer<typeof RequestSchema>;
export const OtherSchema = z.object({ size: z.number() });
export type Other = z.infer<typeof OtherSchema>;
export interface Model {
  size: Request["size"];
  ratio: Request["ratio"];
  plain: number;
  clash: Request["size"] | Other["size"];
}
export interface Args {
  size: number;
  ratio: number;
  plain: number;
}
export type Nested = Request["nested"];
`;

describe("NumberKinds", () => {
  let probe: string;
  let kinds: NumberKinds;
  let source: SourceProgram;
  beforeAll(() => {
    probe = moduleFile(PROBE);
    source = new SourceProgram([probe]);
    kinds = new NumberKinds(source);
  }, 60_000);

  test("probe: the module NumberKinds reads → written in a folder of its own in the system's temp folder, not in the repository", () => {
    expect(path.dirname(path.dirname(path.resolve(REPO, probe)))).toBe(os.tmpdir());
  });

  const property = (type: string, name: string) =>
    source.checker.getPropertyOfType(source.declaredType(probe, type), name)!;

  test("kindOf: a z.infer field → integer when zod says .int(), number otherwise (nested objects too)", () => {
    expect(kinds.kindOf(property("Request", "size"), [], "Request.size")).toBe("integer");
    expect(kinds.kindOf(property("Request", "ratio"), [], "Request.ratio")).toBe("number");
    expect(kinds.kindOf(property("Nested", "seconds"), [], "Nested.seconds")).toBe("integer");
  });

  test('kindOf: X["field"] is followed to the field', () => {
    expect(kinds.kindOf(property("Model", "size"), [], "Model.size")).toBe("integer");
  });

  test("kindOf: a plain number → read from the same-named property of the models", () => {
    const models = [{ file: probe, type: "Model" }];
    expect(kinds.kindOf(property("Args", "size"), models, "Args.size")).toBe("integer");
    expect(kinds.kindOf(property("Args", "ratio"), models, "Args.ratio")).toBe("number");
  });

  test("kindOf: a number no zod field is behind → an error naming it, never a guess", () => {
    const models = [{ file: probe, type: "Model" }];
    expect(() => kinds.kindOf(property("Args", "plain"), models, "Args.plain")).toThrow(
      /Args\.plain: a number with no zod field behind it/,
    );
  });

  test("kindOf: zod fields that disagree → an error naming both", () => {
    expect(() => kinds.kindOf(property("Model", "clash"), [], "Model.clash")).toThrow(
      /Model\.clash: its zod fields disagree.*RequestSchema\.size \(integer\).*OtherSchema\.size \(number\)/,
    );
  });
});
