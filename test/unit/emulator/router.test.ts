/**
 * Path templates: matching, decoding, 404 and 405.
 */
import { ApiError } from "../../../src/emulator/model/apiError";
import { matchTemplate, Router } from "../../../src/emulator/http/router";

describe("router", () => {
  it.each([
    ["/machines/{machineId}/start", "/machines/ps1/start", { machineId: "ps1" }],
    ["/machines/{machineId}/start", "/machines/ps%201/start", { machineId: "ps 1" }],
    ["/machines/{machineId}/start", "/machines//start", null],
    ["/machines/{machineId}/start", "/machines/ps1/stop", null],
    ["/machines/getMachines", "/machines/getMachines/", null],
    ["/machines/{machineId}/start", "/machines/%E0%A4%A/start", null],
  ])("matchTemplate: %s with %s → %j", (template, path, expected) => {
    expect(matchTemplate(template, path)).toEqual(expected);
  });

  const router = new Router([
    { method: "POST", template: "/a/{id}", handle: () => ({ status: 204 }) },
    { method: "GET", template: "/b", handle: () => ({ status: 200 }) },
  ]);

  it("match: known path, wrong method → 405 with Allow", () => {
    const error = thrownBy(() => router.match("GET", "/a/1"));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 405, code: "method_not_allowed", headers: { Allow: "POST" } });
  });

  it("match: unknown path → 404 route_not_found; templateOf → null", () => {
    expect(() => router.match("GET", "/c")).toThrow(
      expect.objectContaining({ status: 404, code: "route_not_found" }),
    );
    expect(router.templateOf("/c")).toBeNull();
    expect(router.templateOf("/a/xyz")).toBe("/a/{id}");
  });
});

/** The error `action` throws; fails the test when it returns instead. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw, but the call returned");
}
