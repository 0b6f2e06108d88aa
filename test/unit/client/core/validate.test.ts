/**
 * Ids in paths: encoded segments and the non-empty id rule (src/client/core/validate.ts).
 */
import { OPERATIONS } from "../../../../src/contract/operations";
import { pathWithId, requireId } from "../../../../src/client/core/validate";

describe("ids", () => {
  it("pathWithId: reserved characters → encoded in their segment", () => {
    expect(pathWithId(OPERATIONS.startMachine, "machineId", "a/b?c#d")).toBe("/machines/a%2Fb%3Fc%23d/start");
  });

  it.each(["", " ", ".", "..", undefined, 42])("requireId: %p → ValidationError", (id) => {
    expect(() => requireId(id, "machineId")).toThrow(/machineId must be a non-empty id/);
    expect(() => pathWithId(OPERATIONS.destroyScript, "scriptId", id)).toThrow(
      /scriptId must be a non-empty id/,
    );
  });
});
