/**
 * The state file: atomic writes, round trip, refusal of foreign files; and the EmulatorContext writing
 * before answering.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadState, saveState, StateFileError } from "../../../src/emulator/state/persistence";
import { parseSeed, DEFAULT_SEED } from "../../../src/emulator";
import { seedToData } from "../../../src/emulator/state/seed";

describe("persistence", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vmapi-state-"));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("saveState then loadState → the same state; no temp file left behind", () => {
    const file = path.join(dir, "s.json");
    const state = {
      version: 1 as const,
      clockNow: 123,
      random: 99,
      data: seedToData(parseSeed(DEFAULT_SEED)),
    };
    saveState(file, state);
    saveState(file, { ...state, random: 100 });
    expect(loadState(file)).toEqual({ ...state, random: 100 });
    expect(fs.readdirSync(dir)).toEqual(["s.json"]);
  });

  it("loadState: missing file → undefined; a foreign JSON file → error naming the file", () => {
    expect(loadState(path.join(dir, "none.json"))).toBeUndefined();
    const other = path.join(dir, "other.json");
    fs.writeFileSync(other, JSON.stringify({ hello: 1 }));
    expect(() => loadState(other)).toThrow(StateFileError);
    expect(() => loadState(other)).toThrow(
      /^state file .*other\.json: not an emulator state file \(version is required.*; data is required\)$/,
    );
  });

  it("loadState: a file that is not JSON → StateFileError without the file's content", () => {
    const broken = path.join(dir, "broken.json");
    fs.writeFileSync(broken, '{"keys": {"individual": "secret-key-in-file"');
    expect(() => loadState(broken)).toThrow(/^state file .*broken\.json: not valid JSON \(/);
    expect(() => loadState(broken)).not.toThrow(/secret-key-in-file/);
  });
});
