/**
 * CLI flag parsing without a process: every flag's bad value names the flag.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseFlags, readyLine, UsageError } from "../../../src/emulator/cli";
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
      keys: { individual: "a", teamAdmin: "b", teamMember: "c" },
    });
    expect(line).toBe(
      '{"url": "http://127.0.0.1:1", "keys": {"individual": "a", "teamAdmin": "b", "teamMember": "c"}}',
    );
    expect(JSON.parse(line)).toEqual({
      url: "http://127.0.0.1:1",
      keys: { individual: "a", teamAdmin: "b", teamMember: "c" },
    });
  });
});
