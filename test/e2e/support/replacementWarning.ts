/**
 * The Machine diff's warning about a machine replaced because its scriptId changes
 * (src/provider/machine/machineProvider.ts), as the real-engine tests look for it: in what a
 * preview prints, in the engine's events, and in vmapi-review's Markdown.
 */

/** The start of the warning, after the machine's name. */
export const REPLACED = /will be REPLACED because its scriptId changes/;

/**
 * Asserts that `lines` hold the whole warning about a machine replaced for its script: that it is
 * replaced and why, that its disk goes with it, and what to write instead.
 */
export function expectReplacementWarning(lines: string[]): void {
  expect(lines).toContainEqual(expect.stringMatching(REPLACED));
  expect(lines).toContainEqual(expect.stringMatching(/destroyed with its disk/));
  expect(lines).toContainEqual(expect.stringMatching(/create the Script with machineId/));
}

/** The items of the "Warnings from the preview" list of a vmapi-review Markdown (none: empty). */
export function reviewWarnings(markdown: string): string[] {
  const [, section = ""] = markdown.split("\n**Warnings from the preview:**\n\n");
  return section.slice(0, section.indexOf("\n\n")).split("\n").filter(Boolean);
}
