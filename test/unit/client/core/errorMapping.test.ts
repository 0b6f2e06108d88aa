import {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  VmApiError,
} from "../../../../src/client/core/errors";
import {
  effectiveStatus,
  errorFromResponse,
  errorFromTransport,
  readErrorBody,
} from "../../../../src/client/core/errorMapping";

const req = { method: "GET", path: "/machines/getMachinePublic" };
const nested = (status: number, message: string, code?: string) =>
  JSON.stringify({ error: { name: "Error", status, message, code } });

describe("errorFromResponse", () => {
  it.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [413, PayloadTooLargeError],
    [429, RateLimitError],
    [500, ServerError],
    [502, ServerError],
    [503, ServerError],
    [405, VmApiError],
  ])("errorFromResponse: HTTP %i with the nested body → %p", (status, cls) => {
    const error = errorFromResponse({ status, body: nested(status, "went wrong", "some_code") }, req);
    expect(error).toBeInstanceOf(cls);
    expect(error).toMatchObject({
      status,
      code: "some_code",
      method: "GET",
      path: "/machines/getMachinePublic",
    });
    expect(error.message).toBe(`went wrong (${status} some_code, GET /machines/getMachinePublic)`);
  });

  it("errorFromResponse: 400 with error.status 404 → NotFoundError (real service shape)", () => {
    const error = errorFromResponse({ status: 400, body: nested(404, "Machine not found") }, req);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.status).toBe(400);
  });

  it("errorFromResponse: 400 with only a 'not found' message → NotFoundError on the basis of its message", () => {
    const error = errorFromResponse({ status: 400, body: nested(400, "Script sc123 not found") }, req);
    expect(error).toBeInstanceOf(NotFoundError);
    // The missing thing may be another resource named in the request (a network, a template):
    // nobody may take this for proof that the addressed resource is gone.
    expect((error as NotFoundError).basis).toBe("message");
  });

  it("errorFromResponse: 400 with code not_found but no 404 anywhere → NotFoundError on the basis of its message", () => {
    const error = errorFromResponse({ status: 400, body: nested(400, "no", "not_found") }, req);
    expect((error as NotFoundError).basis).toBe("message");
  });

  it.each([
    ["HTTP 404", 404, nested(404, "machineId ps1 not found", "not_found")],
    ["error.status 404 under a 400", 400, nested(404, "Machine not found")],
  ])("errorFromResponse: %s → NotFoundError on the basis of a status", (_label, status, body) => {
    expect((errorFromResponse({ status, body }, req) as NotFoundError).basis).toBe("status");
  });

  it("errorFromResponse: flat 'Invalid API token' under 400 → AuthenticationError", () => {
    const body = JSON.stringify({ status: 400, message: "Invalid API token" });
    const error = errorFromResponse({ status: 400, body }, req);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toContain("Invalid API token");
  });

  it("errorFromResponse: flat body with another message → BadRequestError with that message", () => {
    const error = errorFromResponse(
      { status: 400, body: JSON.stringify({ message: "size must be positive" }) },
      req,
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error.message).toMatch(/^size must be positive/);
  });

  it("errorFromResponse: body not JSON → class from the status, generic message", () => {
    const error = errorFromResponse({ status: 502, body: "<html>Bad gateway</html>" }, req);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe("HTTP 502 (502, GET /machines/getMachinePublic)");
  });

  it("errorFromResponse: 404 route_not_found → plain VmApiError, not NotFoundError", () => {
    const error = errorFromResponse({ status: 404, body: nested(404, "no route", "route_not_found") }, req);
    expect(error).not.toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(VmApiError);
  });

  it("errorFromResponse: 429 → RateLimitError carrying retryAfterMs", () => {
    const error = errorFromResponse({ status: 429, body: "", retryAfterMs: 2000 }, req);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(2000);
  });

  it("errorFromResponse: very long server message → truncated", () => {
    const error = errorFromResponse({ status: 400, body: nested(400, "x".repeat(5000)) }, req);
    expect(error.message.length).toBeLessThan(600);
  });
});

describe("effectiveStatus and readErrorBody", () => {
  it("effectiveStatus: non-400 HTTP status → kept even if the body disagrees", () => {
    expect(effectiveStatus(500, { status: 404 })).toBe(500);
  });

  it("effectiveStatus: 400 with body 403 → 403", () => {
    expect(effectiveStatus(400, { status: 403 })).toBe(403);
  });

  it("readErrorBody: unknown JSON shape → empty facts", () => {
    expect(readErrorBody(JSON.stringify([1, 2]))).toEqual({});
    expect(readErrorBody("")).toEqual({});
  });
});

describe("errorFromTransport", () => {
  it("errorFromTransport: ECONNREFUSED → ConnectionError the server cannot have seen", () => {
    const error = errorFromTransport("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:1", req);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.requestMayHaveReachedServer).toBe(false);
    expect(error.message).toContain("GET /machines/getMachinePublic");
  });

  it("errorFromTransport: ECONNRESET → ambiguous ConnectionError", () => {
    expect(errorFromTransport("ECONNRESET", "socket hang up", req).requestMayHaveReachedServer).toBe(true);
  });

  it("errorFromTransport: ECONNABORTED (axios timeout) → TimeoutError", () => {
    const error = errorFromTransport("ECONNABORTED", "timeout of 5ms exceeded", req);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.requestMayHaveReachedServer).toBe(true);
  });
});

describe("local refusals", () => {
  it("ValidationError: raised before any request → outside the API-error tree (no BadRequestError, no status)", () => {
    const error = new ValidationError("region must be one of: ...");
    expect(error).not.toBeInstanceOf(BadRequestError);
    expect(error).toBeInstanceOf(VmApiError);
    expect(error).toMatchObject({ name: "ValidationError", status: undefined, code: "validation_failed" });
  });
});
