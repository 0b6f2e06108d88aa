/**
 * The documentation's relative links resolve: every link of README.md, CONTRIBUTING.md and
 * docs/**\/*.md to a file names one inside the repository that exists, and a link to a heading of
 * a Markdown file names one it has (GitHub's anchors). Links with a scheme (https:, mailto:) are
 * not followed; links inside code blocks and code spans are not links.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** The Markdown files whose links are checked, relative to the repository's root. */
function documents(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return docs(relative);
      return entry.name.endsWith(".md") ? [relative] : [];
    });
  return ["README.md", "CONTRIBUTING.md", ...docs("docs")];
}

/** The text outside fenced code blocks. */
function outsideBlocks(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
}

/** The text outside fenced code blocks and code spans. */
function prose(markdown: string): string {
  return outsideBlocks(markdown).replace(/`[^`\n]*`/g, "");
}

/** Every link target: inline `[text](target)` and reference definitions `[name]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...references];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of outsideBlocks(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Why `target`, linked from `file`, does not resolve; undefined when it does. */
function brokenBecause(file: string, target: string): string | undefined {
  const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
  const resolved =
    pathPart === "" ? path.join(ROOT, file) : path.resolve(ROOT, path.dirname(file), decodeURI(pathPart));
  const inside = path.relative(ROOT, resolved);
  if (inside.startsWith("..") || path.isAbsolute(inside)) return "outside the repository";
  if (!fs.existsSync(resolved)) return "no such file";
  if (anchor === undefined || anchor === "" || !resolved.endsWith(".md")) return undefined;
  return anchors(fs.readFileSync(resolved, "utf8")).has(anchor) ? undefined : `no heading #${anchor}`;
}

describe("documentation links", () => {
  const files = documents();

  it("documents: README.md, CONTRIBUTING.md and the docs pages are all found", () => {
    expect(files).toEqual(
      expect.arrayContaining(["README.md", "CONTRIBUTING.md", path.join("docs", "configuration.md")]),
    );
  });

  it.each(files)("%s: every relative link → an existing file (and heading) in the repository", (file) => {
    const markdown = fs.readFileSync(path.join(ROOT, file), "utf8");
    const broken = linkTargets(markdown)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .map((target) => ({ target, problem: brokenBecause(file, target) }))
      .filter(({ problem }) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it("anchors: headings with code and punctuation → GitHub's anchors", () => {
    const page = "# The `pulumi` CLI: built once, cached\n## Notes\n## Notes\n```\n# not a heading\n```\n";
    expect([...anchors(page)]).toEqual(["the-pulumi-cli-built-once-cached", "notes", "notes-1"]);
  });

  it("links: code spans and code blocks → not links; reference definitions → links", () => {
    const page = "[a](x.md) `[b](y.md)`\n```\n[c](z.md)\n```\n[d]: w.md\n";
    expect(linkTargets(page)).toEqual(["x.md", "w.md"]);
  });
});
