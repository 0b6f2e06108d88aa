/**
 * Parsing an answer's body against the contract (src/client/core/http.ts parseBody).
 */
import { parseBody } from "../../../../src/client/core/http";
import { ResourceDelegationResponseSchema, ScriptTextSchema } from "../../../../src/contract/schemas";

describe("parseBody", () => {
  const req = { method: "GET", path: "/scripts/getScriptText" };
  it("parseBody: no schema → any body accepted (204s)", () => {
    expect(parseBody("", undefined, req, 204)).toBeUndefined();
    expect(parseBody("{}", undefined, req, 200)).toBeUndefined();
  });

  it("parseBody: JSON string for getScriptText → the text", () => {
    expect(parseBody('"echo hi\\n"', ScriptTextSchema, req, 200)).toBe("echo hi\n");
  });

  it("parseBody: delegation as object or one-element array → the object", () => {
    const d = {
      id: 1,
      delegation: { machine: { ids: ["ps1"] } },
      isEnabled: true,
      accessTokenId: "tok",
      dtCreated: "2026-01-01T00:00:00.000Z",
    };
    const r = { method: "POST", path: "/resourceDelegations/create" };
    expect(parseBody(JSON.stringify(d), ResourceDelegationResponseSchema, r, 200)).toEqual(d);
    expect(parseBody(JSON.stringify([d]), ResourceDelegationResponseSchema, r, 200)).toEqual(d);
  });

  it("parseBody: wrong type → ResponseValidationError naming the request", () => {
    expect(() => parseBody("42", ScriptTextSchema, req, 200)).toThrow(
      /response of GET \/scripts\/getScriptText does not match the contract/,
    );
    expect(() => parseBody("not json", ScriptTextSchema, req, 200)).toThrow(/is not JSON/);
    expect(() => parseBody("", ScriptTextSchema, req, 200)).toThrow(/the body is empty/);
  });
});
