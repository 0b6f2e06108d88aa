/**
 * The console's request log: a ring of fixed size, oldest overwritten first, read from any seq.
 */
import { RequestLog, type RequestRecord } from "../../../src/emulator/traffic/requestLog";

const request = (route: string): RequestRecord => ({
  method: "GET",
  route,
  status: 200,
  ms: 1,
  caller: "u1",
});

describe("RequestLog", () => {
  it("since: fewer entries than its capacity → all of them after the seq asked, oldest first, stamped by the clock", () => {
    let now = 1000;
    const log = new RequestLog(() => now++, 5);
    for (const route of ["/a", "/b", "/c"]) log.record(request(route));
    expect(log.since().map((e) => [e.seq, e.route, e.at])).toEqual([
      [1, "/a", 1000],
      [2, "/b", 1001],
      [3, "/c", 1002],
    ]);
    expect(log.since(2).map((e) => e.route)).toEqual(["/c"]);
    expect(log.since(3)).toEqual([]);
    expect(log.nextSeq).toBe(4);
  });

  it("record: past its capacity → the newest `capacity` kept, seqs going on", () => {
    const log = new RequestLog(() => 0, 3);
    for (let i = 1; i <= 10; i++) log.record(request(`/r${i}`));
    expect(log.since().map((e) => [e.seq, e.route])).toEqual([
      [8, "/r8"],
      [9, "/r9"],
      [10, "/r10"],
    ]);
    // A reader far behind gets what is kept, not what was overwritten.
    expect(log.since(2).map((e) => e.seq)).toEqual([8, 9, 10]);
    expect(log.since(9).map((e) => e.seq)).toEqual([10]);
  });

  it("constructor: capacity 0 or fractional → RangeError naming capacity", () => {
    expect(() => new RequestLog(() => 0, 0)).toThrow(/capacity must be an integer >= 1 \(got 0\)/);
    expect(() => new RequestLog(() => 0, 1.5)).toThrow(RangeError);
  });
});
