/**
 * CLI flag parsing without a process: every flag's bad value names the flag.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { asUsageError, parseFlags, readyLine, UsageError } from "../../../src/emulator/cli";
import { StateFileError } from "../../../src/emulator/state/persistence";
import { DEFAULT_SEED } from "../../../src/emulator";

describe("parseFlags", () => {
  it("parseFlags: every flag → options", () => {
    expect(
      parseFlags([
        "--port=0",
        "--host",
        "0.0.0.0",
        "--state-file",
        "s.json",
        "--time-scale",
        "0.01",
        "--clock",
        "manual",
        "--fault-rate",
        "0.2",
        "--fault-seed",
        "9",
      ]),
    ).toEqual({
      port: 0,
      host: "0.0.0.0",
      seed: undefined,
      stateFile: "s.json",
      timeScale: 0.01,
      clock: "manual",
      faultRate: 0.2,
      faultSeed: 9,
    });
    expect(parseFlags(["--help"])).toBe("help");
  });

  it("parseFlags: --remote-control → remoteControl; without it → not set (loopback only)", () => {
    expect(parseFlags(["--host", "0.0.0.0", "--remote-control"])).toMatchObject({ remoteControl: true });
    expect(parseFlags(["--host", "0.0.0.0"])).not.toHaveProperty("remoteControl");
  });

  it("parseFlags: --rate-limit R or R/s, --rate-burst B → rateLimit, rateBurst", () => {
    expect(parseFlags(["--rate-limit", "5/s", "--rate-burst", "10"])).toMatchObject({
      rateLimit: 5,
      rateBurst: 10,
    });
    expect(parseFlags(["--rate-limit", "0.5"])).toMatchObject({ rateLimit: 0.5, rateBurst: undefined });
    expect(parseFlags([])).toMatchObject({ rateLimit: undefined, rateBurst: undefined });
  });

  it.each([
    [
      ["--rate-limit", "0"],
      '--rate-limit must be a number of requests per second > 0, as R or R/s (got "0")',
    ],
    [
      ["--rate-limit", "-2"],
      '--rate-limit must be a number of requests per second > 0, as R or R/s (got "-2")',
    ],
    [
      ["--rate-limit", "/s"],
      '--rate-limit must be a number of requests per second > 0, as R or R/s (got "/s")',
    ],
    [
      ["--rate-limit", "5/min"],
      '--rate-limit must be a number of requests per second > 0, as R or R/s (got "5/min")',
    ],
    [["--rate-limit", "5", "--rate-burst", "0"], '--rate-burst must be an integer >= 1 (got "0")'],
    [["--rate-limit", "5", "--rate-burst", "2.5"], '--rate-burst must be an integer >= 1 (got "2.5")'],
    [["--rate-burst", "3"], "--rate-burst needs --rate-limit (a burst without a rate limits nothing)"],
  ])("parseFlags: %j → UsageError %s", (args, message) => {
    expect(() => parseFlags(args)).toThrow(new UsageError(message));
  });

  it.each([
    [["--port", "70000"], "--port"],
    [["--port", ""], "--port"],
    [["--time-scale", "-1"], "--time-scale"],
    [["--clock", "fast"], "--clock"],
    [["--fault-rate", "1.5"], "--fault-rate"],
    [["--fault-seed", "1.5"], "--fault-seed"],
    [["--seed", "/nonexistent/seed.json"], "--seed"],
    [["--unknown"], "--unknown"],
    [["positional"], "positional"],
  ])("parseFlags: %j → UsageError naming %s", (args, flag) => {
    expect(() => parseFlags(args)).toThrow(UsageError);
    expect(() => parseFlags(args)).toThrow(flag);
  });

  it.each([
    [["--time-scale", "-1"], '--time-scale must be a number >= 0 (got "-1")'],
    [["--time-scale", "-0.5"], '--time-scale must be a number >= 0 (got "-0.5")'],
    [["--port", "-1"], '--port must be an integer 0..65535 (got "-1")'],
    [["--fault-rate", "-.2"], '--fault-rate must be a number between 0 and 1 (got "-.2")'],
  ])("parseFlags: negative-looking %j → UsageError naming the flag and its range", (args, message) => {
    expect(() => parseFlags(args)).toThrow(new UsageError(message));
  });

  it("parseFlags: --fault-seed -5 → -5 (any integer seeds the faults)", () => {
    expect(parseFlags(["--fault-seed", "-5"])).toMatchObject({ faultSeed: -5 });
  });

  it("asUsageError: a StateFileError → a UsageError naming --state-file and the file", () => {
    const usage = asUsageError(new StateFileError("s.json", "not valid JSON (x)"));
    expect(usage).toEqual(new UsageError("--state-file s.json: not valid JSON (x)"));
    expect(asUsageError(new Error("EADDRINUSE"))).toBeUndefined();
  });

  it("parseFlags: --seed with invalid JSON → UsageError naming --seed", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "seed-")), "seed.json");
    fs.writeFileSync(file, "{nope");
    expect(() => parseFlags(["--seed", file])).toThrow(/--seed .*not valid JSON/);
  });

  it("parseFlags: --seed with a seed missing keys → UsageError naming --seed and the field", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "seed-")), "seed.json");
    fs.writeFileSync(file, JSON.stringify({ teams: [] }));
    expect(() => parseFlags(["--seed", file])).toThrow(UsageError);
    expect(() => parseFlags(["--seed", file])).toThrow(/--seed .*invalid seed: .*keys/);
  });

  it("parseFlags: --seed with the default seed as JSON → the validated seed", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "seed-")), "seed.json");
    fs.writeFileSync(file, JSON.stringify(DEFAULT_SEED));
    expect(parseFlags(["--seed", file])).toMatchObject({ seed: { keys: DEFAULT_SEED.keys } });
  });

  it("readyLine: → the documented one-line JSON", () => {
    const line = readyLine({
      url: "http://127.0.0.1:1",
      console: "http://127.0.0.1:1/_console/",
      keys: { individual: "a", teamAdmin: "b", teamMember: "c" },
    });
    expect(line).toBe(
      '{"url": "http://127.0.0.1:1", "console": "http://127.0.0.1:1/_console/", "keys": {"individual": "a", "teamAdmin": "b", "teamMember": "c"}}',
    );
    expect(JSON.parse(line)).toEqual({
      url: "http://127.0.0.1:1",
      console: "http://127.0.0.1:1/_console/",
      keys: { individual: "a", teamAdmin: "b", teamMember: "c" },
    });
  });
});
