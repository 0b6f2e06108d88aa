/**
 * The whole pull-request comment, in the layout of Pulumi's own GitHub Action (pulumi/actions,
 * `comment-on-pr` with `edit-pr-comment`): a heading `#### :tropical_drink: \`preview\` on
 * <project>/<stack>` and the preview's output in a collapsed "Pulumi report". That action finds
 * the comment to edit by this heading and summary, and so does examples/ci: one comment per
 * stack, edited on every push. The review goes between the two.
 */
import { escapeHtml } from "./markdown";
import { parsePreview, urnParts } from "./previewJson";

/** GitHub refuses comments over 65 536 characters; the action keeps the log under this. */
const MAX_LOG_CHARS = 60_000;

/** The heading that identifies a stack's comment (the action's). */
export function commentHeading(project: string, stack: string): string {
  return `#### :tropical_drink: \`preview\` on ${project}/${stack}`;
}

/** The summary line of the collapsed preview output (the action's). */
export const COMMENT_SUMMARY = "<summary>Pulumi report</summary>";

/** The comment for `previewJson` with the review `markdown` and the preview's text output `log`. */
export function prComment(previewJson: string, markdown: string, log: string): string {
  const first = parsePreview(previewJson).steps[0];
  const { project, stack } = first ? urnParts(first.urn) : { project: "?", stack: "?" };
  // eslint-disable-next-line no-control-regex -- the log's colour codes
  let body = log.replace(/\u001b\[[0-9;]*m/g, "");
  const trimmed = body.length > MAX_LOG_CHARS;
  if (trimmed) body = body.slice(body.length - MAX_LOG_CHARS); // the summary is at the end
  return [
    commentHeading(project, stack),
    "",
    markdown.trimEnd(),
    "",
    "<details>",
    COMMENT_SUMMARY,
    "",
    trimmed ? `The output was too long: its last ${MAX_LOG_CHARS} characters.` : "",
    "<pre>",
    escapeHtml(body).trimEnd(),
    "</pre>",
    "</details>",
    "",
  ].join("\n");
}
