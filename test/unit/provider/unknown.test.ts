import { runtime } from "@pulumi/pulumi";
import { UNKNOWN, containsUnknown } from "../../../src/provider/shared/unknown";

describe("the preview's unknown sentinel", () => {
  it("is the SDK's own, so values the engine does not know yet are never read as bad input", () => {
    expect(UNKNOWN).toBe(runtime.unknownValue);
  });

  it("is found inside lists and objects", () => {
    expect(containsUnknown({ a: [1, { b: UNKNOWN }] })).toBe(true);
    expect(containsUnknown({ a: [1, { b: "04da6b54" }] })).toBe(false);
  });
});
