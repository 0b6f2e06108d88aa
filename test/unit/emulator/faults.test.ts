/**
 * Fault decisions without HTTP: rule matching and countdown, and the seeded random sequence.
 */
import { defaultFaultCode, Faults, FaultRuleSchema } from "../../../src/emulator/traffic/faults";

const rule = (r: Record<string, unknown>) => FaultRuleSchema.parse(r);

describe("Faults", () => {
  it("decide: rules match by method and by template or exact path, first armed rule wins", () => {
    const f = new Faults(0, 1);
    f.add([
      rule({ method: "post", route: "/machines/{machineId}/start", status: 503 }),
      rule({ route: "/x", reset: true }),
    ]);
    expect(f.decide("GET", "/machines/p/start", "/machines/{machineId}/start")).toBeNull();
    expect(f.decide("POST", "/machines/p/start", "/machines/{machineId}/start")).toMatchObject({
      kind: "status",
      status: 503,
      code: "service_unavailable",
    });
    expect(f.decide("POST", "/machines/p/start", "/machines/{machineId}/start")).toBeNull();
    expect(f.decide("GET", "/x", null)).toMatchObject({ kind: "reset" });
    expect(f.list()).toEqual([]);
  });

  it("decide: times counts down; latency-only rule → act after a delay; dropResponse → drop", () => {
    const f = new Faults(0, 1);
    f.add([rule({ latencyMs: 5, times: 2 })]);
    expect(f.decide("GET", "/a", null)).toEqual({ source: "rule", latencyMs: 5, kind: "act" });
    expect(f.list()[0].times).toBe(1);
    f.decide("GET", "/a", null);
    f.add([rule({ dropResponse: true })]);
    expect(f.decide("GET", "/a", null)).toMatchObject({ kind: "drop" });
  });

  it("injected: every fault decided → counted by kind, random ones apart; reset → zero", () => {
    const f = new Faults(1, 7);
    f.add([rule({ status: 503 }), rule({ latencyMs: 5 }), rule({ reset: true })]);
    for (let i = 0; i < 3; i++) f.decide("GET", "/a", null);
    expect(f.injected()).toEqual({ total: 3, random: 0, byKind: { "503": 1, delay: 1, reset: 1 } });
    const random = Array.from({ length: 50 }, () => f.decide("GET", "/a", null));
    const counts = f.injected();
    expect(counts).toMatchObject({ total: 53, random: 50 });
    expect(Object.values(counts.byKind).reduce((a, b) => a + b, 0)).toBe(53);
    expect(counts.byKind.drop).toBe(random.filter((a) => a?.kind === "drop").length);
    f.reset();
    expect(f.injected()).toEqual({ total: 0, random: 0, byKind: {} });
  });

  it("random: same seed → same decisions; reset → starts over", () => {
    const run = (f: Faults) => Array.from({ length: 200 }, () => JSON.stringify(f.decide("GET", "/a", null)));
    const a = new Faults(0.3, 42);
    const first = run(a);
    expect(run(new Faults(0.3, 42))).toEqual(first);
    expect(run(new Faults(0.3, 43))).not.toEqual(first);
    a.reset();
    expect(run(a)).toEqual(first);
    const hits = first.filter((x) => x !== "null").length;
    expect(hits).toBeGreaterThan(30);
    expect(hits).toBeLessThan(100);
  });

  it("decide: hold request → that request held, the next one not; hold all → every later one held until release", async () => {
    const f = new Faults(0, 1);
    f.add([rule({ route: "/a", hold: "request" }), rule({ route: "/b", hold: "all", status: 503 })]);
    expect(f.decide("GET", "/a", null)).toMatchObject({ kind: "act", hold: true });
    expect(f.decide("GET", "/a", null)).toBeNull();
    expect(f.decide("GET", "/b", null)).toMatchObject({ kind: "status", status: 503, hold: true });
    expect(f.decide("GET", "/c", null)).toEqual({ source: "rule", latencyMs: 0, kind: "act", hold: true });
    const order: string[] = [];
    const held = ["/b", "/c"].map((route) => f.hold({ method: "GET", route }).then(() => order.push(route)));
    expect(f.heldRequests()).toEqual([
      { method: "GET", route: "/b" },
      { method: "GET", route: "/c" },
    ]);
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(f.release().map((r) => r.route)).toEqual(["/b", "/c"]);
    await Promise.all(held);
    expect(order).toEqual(["/b", "/c"]);
    expect(f.heldRequests()).toEqual([]);
    expect(f.decide("GET", "/c", null)).toBeNull();
  });

  it.each([
    [429, "rate_limited"],
    [500, "internal_error"],
    [502, "internal_error"],
    [503, "service_unavailable"],
    [404, "not_found"],
    [418, "validation_failed"],
  ])("defaultFaultCode: %i → %s", (status, code) => {
    expect(defaultFaultCode(status)).toBe(code);
  });
});
