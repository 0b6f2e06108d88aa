/**
 * How the schema generator tells an `integer` from a `number` (tools/schema/numberKinds.ts): from
 * the zod field a property's declaration leads to, through `z.infer` types, `X["field"]` and a
 * resource's models, never from a list; and it refuses to guess.
 */
import * as fs from "fs";
import * as path from "path";
import { NumberKinds } from "../../../tools/schema/numberKinds";
import { REPO, SourceProgram } from "../../../tools/schema/sourceProgram";

/** A module of its own under the repository (NumberKinds requires the files it reads). */
function moduleFile(text: string): { file: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(REPO, "tools", "schema", ".probe-"));
  const full = path.join(dir, "probe.ts");
  fs.writeFileSync(full, text);
  return { file: path.relative(REPO, full), remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

const PROBE = `
import { z } from "zod";
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
  let probe: { file: string; remove(): void };
  let kinds: NumberKinds;
  let source: SourceProgram;
  beforeAll(() => {
    probe = moduleFile(PROBE);
    source = new SourceProgram([probe.file]);
    kinds = new NumberKinds(source);
  }, 60_000);
  afterAll(() => probe.remove());

  const property = (type: string, name: string) =>
    source.checker.getPropertyOfType(source.declaredType(probe.file, type), name)!;

  test("kindOf: a z.infer field → integer when zod says .int(), number otherwise (nested objects too)", () => {
    expect(kinds.kindOf(property("Request", "size"), [], "Request.size")).toBe("integer");
    expect(kinds.kindOf(property("Request", "ratio"), [], "Request.ratio")).toBe("number");
    expect(kinds.kindOf(property("Nested", "seconds"), [], "Nested.seconds")).toBe("integer");
  });

  test('kindOf: X["field"] is followed to the field', () => {
    expect(kinds.kindOf(property("Model", "size"), [], "Model.size")).toBe("integer");
  });

  test("kindOf: a plain number → read from the same-named property of the models", () => {
    const models = [{ file: probe.file, type: "Model" }];
    expect(kinds.kindOf(property("Args", "size"), models, "Args.size")).toBe("integer");
    expect(kinds.kindOf(property("Args", "ratio"), models, "Args.ratio")).toBe("number");
  });

  test("kindOf: a number no zod field is behind → an error naming it, never a guess", () => {
    const models = [{ file: probe.file, type: "Model" }];
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
