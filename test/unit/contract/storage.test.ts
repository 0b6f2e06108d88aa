import { BYTES_PER_GB, bytesToGb, gbToBytes } from "../../../src/contract/storage";

describe("storage sizes on the wire", () => {
  it("gbToBytes: whole and fractional GB → the wire's numeric string of bytes", () => {
    expect(gbToBytes(100)).toBe("107374182400");
    expect(gbToBytes(0.5)).toBe(String(BYTES_PER_GB / 2));
  });

  it("bytesToGb: the wire's bytes → GB, the inverse of gbToBytes", () => {
    for (const gb of [0.5, 1, 50, 2000]) expect(bytesToGb(gbToBytes(gb))).toBe(gb);
  });

  it("bytesToGb: null or not a whole number of bytes → undefined", () => {
    expect(bytesToGb(null)).toBeUndefined();
    expect(bytesToGb("12.5")).toBeUndefined();
    expect(bytesToGb("")).toBeUndefined();
  });
});
