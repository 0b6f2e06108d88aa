/**
 * The TypeScript sources the schema is read from, loaded once with the compiler API and the
 * repository's own compiler options: declarations by name, their TSDoc and their TSDoc tags.
 */
import * as path from "path";
import * as ts from "typescript";

/** The repository's root. */
export const REPO = path.resolve(__dirname, "..", "..");

/** A loaded program over some of the sources, and what reads it. */
export class SourceProgram {
  readonly checker: ts.TypeChecker;
  private readonly program: ts.Program;

  /**
   * Loads `files` (paths relative to the repository) and everything they import; a file `overlay`
   * holds (by the same relative path) is read as the text there, not as it is on disk: the classes
   * generated in the same run.
   */
  constructor(files: readonly string[], overlay: ReadonlyMap<string, string> = new Map()) {
    const configPath = path.join(REPO, "tsconfig.json");
    const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, REPO);
    const options = { ...parsed.options, noEmit: true };
    const host = ts.createCompilerHost(options);
    const texts = new Map([...overlay].map(([file, text]) => [path.join(REPO, file), text]));
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    host.readFile = (file) => texts.get(path.resolve(file)) ?? readFile(file);
    host.fileExists = (file) => texts.has(path.resolve(file)) || fileExists(file);
    this.program = ts.createProgram({ rootNames: files.map((file) => path.join(REPO, file)), options, host });
    this.checker = this.program.getTypeChecker();
  }

  /** The source file at `file` (relative to the repository). */
  sourceFile(file: string): ts.SourceFile {
    const source = this.program.getSourceFile(path.join(REPO, file));
    if (!source) throw new Error(`${file}: not among the sources read`);
    return source;
  }

  /** The export `name` of `file`, followed through re-exports. */
  exported(file: string, name: string): ts.Symbol {
    const module = this.checker.getSymbolAtLocation(this.sourceFile(file));
    const symbol = module && this.checker.getExportsOfModule(module).find((s) => s.name === name);
    if (!symbol) throw new Error(`${file}: no export named ${name}`);
    return symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
  }

  /** The type an exported interface, type alias or class declares. */
  declaredType(file: string, name: string): ts.Type {
    return this.checker.getDeclaredTypeOfSymbol(this.exported(file, name));
  }

  /** The type a property's declaration writes: `pulumi.Input<T>` kept whole, not widened by `?`. */
  writtenType(symbol: ts.Symbol): ts.Type {
    const decl = symbol.valueDeclaration;
    if (decl && (ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) && decl.type) {
      return this.checker.getTypeFromTypeNode(decl.type);
    }
    return this.checker.getTypeOfSymbol(symbol);
  }

  /** `default` from the TSDoc tag `@defaultValue` (a JSON value: `"ready"`, `1200`, `true`). */
  defaultOf(symbol: ts.Symbol): { default?: string | number | boolean } {
    const text = this.tag(symbol, "defaultValue");
    if (text === undefined) return {};
    try {
      return { default: JSON.parse(text.replace(/^`|`$/g, "")) as string | number | boolean };
    } catch {
      throw new Error(`${symbol.name}: @defaultValue ${text} is not a JSON value`);
    }
  }

  /** The TSDoc of `symbol`, its block tags left out, as one paragraph per blank-line break. */
  doc(symbol: ts.Symbol): string {
    return normalizeDoc(ts.displayPartsToString(symbol.getDocumentationComment(this.checker)));
  }

  /** The text of TSDoc tag `@name` on `symbol`, or undefined when it has none. */
  tag(symbol: ts.Symbol, name: string): string | undefined {
    const tag = symbol.getJsDocTags(this.checker).find((t) => t.name === name);
    return tag ? ts.displayPartsToString(tag.text).trim() : undefined;
  }
}

/**
 * TSDoc as a schema description: lines joined (TSDoc wraps at the source's width), paragraphs
 * kept, and `{@link X}` written as `X`.
 */
export function normalizeDoc(text: string): string {
  return text
    .replace(/\{@link\s+([^}|\s]+)(?:\s*\|\s*([^}]+))?\}/g, (_, target: string, label?: string) =>
      label ? label.trim() : `\`${target}\``,
    )
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").trim())
    .filter((paragraph) => paragraph !== "")
    .join("\n\n");
}
