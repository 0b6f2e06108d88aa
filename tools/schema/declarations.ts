/**
 * The resources as their folders declare them, found rather than listed: every file
 * `src/provider/<folder>/<name>Resource.ts` must export `<name>Resource`, a `ResourceDeclaration`
 * whose kind is `<Name>` (shared/resourceDeclaration.ts). The schema, the reference pages and the
 * registry's index (resourceIndex.ts) are all made from what this finds, so a new folder with a
 * declaration is picked up by `npm run schema:update`, and `npm run schema:check` fails until it is.
 */
import * as fs from "fs";
import * as path from "path";
import type { ResourceDeclaration } from "../../src/provider/shared/resourceDeclaration";
import { REPO } from "./sourceProgram";

/** Where the resource folders are, relative to the repository. */
export const PROVIDER_DIR = "src/provider";

/** What a declaration file is named: `machineResource.ts` (the name, then `Resource`). */
const DECLARATION_FILE = /^([a-z][A-Za-z0-9]*)Resource\.ts$/;

/** One declaration and where it is. */
export interface DeclaredResource {
  declaration: ResourceDeclaration;
  /** Its file, relative to the repository (`src/provider/machine/machineResource.ts`). */
  file: string;
  /** The name it is exported as (`machineResource`). */
  exportName: string;
  /** Its TypeScript class's file, with the class and its `<Kind>Args` (`src/provider/dynamic/machine.ts`). */
  classFile: string;
  /** Its implementation's file beside it (`src/provider/machine/machineProvider.ts`) and export name. */
  providerFile: string;
  providerName: string;
}

/** Every declaration under src/provider, by kind. Fails naming the file that breaks the rule. */
export function declaredResources(): DeclaredResource[] {
  const found: DeclaredResource[] = [];
  const root = path.join(REPO, PROVIDER_DIR);
  for (const folder of fs.readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const name of fs.readdirSync(path.join(root, folder.name)).sort()) {
      const match = DECLARATION_FILE.exec(name);
      if (match) found.push(declaredIn(`${PROVIDER_DIR}/${folder.name}/${name}`, `${match[1]}Resource`));
    }
  }
  const kinds = found.map((d) => d.declaration.kind);
  const twice = kinds.filter((kind, i) => kinds.indexOf(kind) !== i);
  if (twice.length > 0) throw new Error(`resources declared twice: ${twice.join(", ")}`);
  return found.sort((a, b) => a.declaration.kind.localeCompare(b.declaration.kind));
}

/** The declaration `exportName` of `file`, checked against the naming rule. */
function declaredIn(file: string, exportName: string): DeclaredResource {
  const module = require(path.join(REPO, file)) as Record<string, Partial<ResourceDeclaration> | undefined>;
  const declaration = module[exportName];
  if (typeof declaration?.kind !== "string" || typeof declaration.inputs !== "object") {
    throw new Error(`${file}: a declaration file exports its ResourceDeclaration as ${exportName}`);
  }
  const name = lower(declaration.kind);
  if (`${name}Resource` !== exportName) {
    throw new Error(`${file}: declares ${declaration.kind}, so it is named ${name}Resource.ts`);
  }
  // Generated from the declaration (resourceClasses.ts).
  const classFile = `${PROVIDER_DIR}/dynamic/${name}.ts`;
  const providerName = `${name}Provider`;
  const providerFile = `${path.dirname(file)}/${providerName}.ts`;
  if (!fs.existsSync(path.join(REPO, providerFile)))
    throw new Error(
      `${file}: ${declaration.kind}'s implementation is ${providerName}, exported by ${providerFile}`,
    );
  return {
    declaration: declaration as ResourceDeclaration,
    file,
    exportName,
    classFile,
    providerFile,
    providerName,
  };
}

/** A kind's name with its first letter lower: the stem of its files (`Machine` → `machine`). */
export function lower(kind: string): string {
  return kind[0].toLowerCase() + kind.slice(1);
}

/** `file` (relative to the repository, under src/provider) as a module of src/provider imports it: `./machine/machineResource`. */
export function fromProviderDir(file: string): string {
  return `./${file.slice(PROVIDER_DIR.length + 1).replace(/\.ts$/, "")}`;
}
