/**
 * One source for the emulator's defaults: the flag table of docs/emulator.md says what
 * EMULATOR_DEFAULTS (used by startEmulator and printed by --help) says.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { EMULATOR_DEFAULTS } from "../../../src/emulator";

const ROOT = path.resolve(__dirname, "../../..");
const FLAGS: Record<keyof typeof EMULATOR_DEFAULTS, string> = {
  port: "--port",
  host: "--host",
  timeScale: "--time-scale",
  clock: "--clock",
  faultRate: "--fault-rate",
  faultSeed: "--fault-seed",
  rateLimit: "--rate-limit",
};

/** The default column of the table row of `flag`: its first word, without backticks. */
function documentedDefault(markdown: string, flag: string): string | undefined {
  const row = markdown.split("\n").find((line) => line.startsWith(`| \`${flag} `));
  const cell = row?.split(/(?<!\\)\|/)[2]?.trim();
  return cell?.replace(/`/g, "").split(" ")[0];
}

describe.each(["docs/emulator.md"])("%s", (file) => {
  const markdown = fs.readFileSync(path.join(ROOT, file), "utf8");
  it.each(Object.entries(FLAGS))("flag table: default of %s → EMULATOR_DEFAULTS", (option, flag) => {
    const expected = String(EMULATOR_DEFAULTS[option as keyof typeof EMULATOR_DEFAULTS]);
    expect({ flag, documented: documentedDefault(markdown, flag) }).toEqual({ flag, documented: expected });
  });
});
