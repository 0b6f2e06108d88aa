/**
 * The plugin's schema (plugin/schema.json, generated from the resource classes and the contract by
 * tools/schema): served as it is by `GetSchema`, and read for what the plugin must keep secret.
 * The npm package reads the file; the single executable of a release (tools/plugin) carries it as
 * an asset, since it has no package folder beside it.
 */
import * as fs from "fs";
import * as path from "path";
import type * as SeaModule from "node:sea";
import { pluginToken } from "../../contract/typeTokens";

/** Where the schema is, from this module's folder (src/ or dist/provider/native): the package's plugin/. */
export const SCHEMA_PATH = path.resolve(__dirname, "..", "..", "..", "plugin", "schema.json");

/** The key of the schema among a single executable's assets (tools/plugin/dist.sh). */
export const SCHEMA_ASSET = "schema.json";

interface PropertySpecs {
  [name: string]: { secret?: boolean };
}

interface SchemaDocument {
  version?: string;
  resources?: Record<string, { properties?: PropertySpecs; inputProperties?: PropertySpecs }>;
  functions?: Record<string, { outputs?: { properties?: PropertySpecs } }>;
}

/** The schema, and the secret properties of each resource and function. */
export class NativeSchema {
  private readonly doc: SchemaDocument;
  /** Each answer below, by what it was asked of: the schema does not change, and every call asks. */
  private readonly answers = new Map<string, readonly string[]>();

  constructor(readonly text: string) {
    this.doc = JSON.parse(text) as SchemaDocument;
  }

  /** The package version the schema was made for. */
  get version(): string {
    return this.doc.version ?? "0.0.0";
  }

  /** Inputs of resource `kind` that are always secret. */
  secretInputs(kind: string): readonly string[] {
    return this.answer(`secretInputs ${kind}`, () =>
      secretOf(this.doc.resources?.[pluginToken(kind)]?.inputProperties),
    );
  }

  /** Outputs of resource `kind` that are always secret. */
  secretOutputs(kind: string): readonly string[] {
    return this.answer(`secretOutputs ${kind}`, () =>
      secretOf(this.doc.resources?.[pluginToken(kind)]?.properties),
    );
  }

  /** Every output of resource `kind`. */
  outputNames(kind: string): readonly string[] {
    return this.answer(`outputNames ${kind}`, () =>
      Object.keys(this.doc.resources?.[pluginToken(kind)]?.properties ?? {}),
    );
  }

  /** Result properties of function `name` that are secret. */
  secretResults(name: string): readonly string[] {
    return this.answer(`secretResults ${name}`, () =>
      secretOf(this.doc.functions?.[pluginToken(name)]?.outputs?.properties),
    );
  }

  private answer(question: string, make: () => string[]): readonly string[] {
    let answer = this.answers.get(question);
    if (answer === undefined) this.answers.set(question, (answer = Object.freeze(make())));
    return answer;
  }
}

function secretOf(properties: PropertySpecs | undefined): string[] {
  return Object.entries(properties ?? {})
    .filter(([, spec]) => spec.secret === true)
    .map(([name]) => name);
}

/** The schema the package ships, or the one the single executable carries. */
export function shippedSchema(): NativeSchema {
  // Loaded here, not with the module: a release's startup snapshot holds this module, and Node's
  // `sea` is not one a snapshot may hold (tools/plugin/snapshotMain.ts).
  const sea = require("node:sea") as typeof SeaModule;
  const text = sea.isSea() ? sea.getAsset(SCHEMA_ASSET, "utf8") : fs.readFileSync(SCHEMA_PATH, "utf8");
  return new NativeSchema(text);
}
