/**
 * The Script, declared once (shared/resourceDeclaration.ts says who reads what): its class
 * registers this shape, the registry loads its implementation from here, the schema reads its
 * diff table and models here.
 */
import type * as ScriptProviderModule from "./scriptProvider";
import type { ResourceDeclaration } from "../shared/resourceDeclaration";
import { SCRIPT_DIFF_TABLE, SCRIPT_INPUT_KEYS, SCRIPT_OUTPUT_KEYS } from "./scriptModel";

/** A startup script: its model's keys, auto-named. */
export const scriptResource = {
  kind: "Script",
  load: () => (require("./scriptProvider") as typeof ScriptProviderModule).scriptProvider,
  keys: [...SCRIPT_OUTPUT_KEYS, ...SCRIPT_INPUT_KEYS],
  autoNamed: true,
  changes: SCRIPT_DIFF_TABLE,
  // `check` hashes the text (or the file's content): an edited text is a new hash.
  derived: { contentSha256: ["scriptText", "scriptFile"] },
  models: [{ file: "src/provider/script/scriptModel.ts", type: "ScriptOutputs" }],
  page: "docs/resources/script.md",
} as const satisfies ResourceDeclaration;
