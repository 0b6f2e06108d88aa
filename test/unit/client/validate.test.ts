/**
 * Ids in paths: encoded segments and the non-empty id rule (src/client/validate.ts).
 */
import { requireId, segment } from "../../../src/client/validate";

describe("ids", () => {
  it("segment: reserved characters → encoded", () => {
    expect(segment("a/b?c#d")).toBe("a%2Fb%3Fc%23d");
  });

  it.each(["", " ", ".", "..", undefined, 42])("requireId: %p → ValidationError", (id) => {
    expect(() => requireId(id, "machineId")).toThrow(/machineId must be a non-empty id/);
  });
});
