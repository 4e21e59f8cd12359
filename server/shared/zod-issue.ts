/**
 * One sentence from a zod error for a 400 description: the first issue, prefixed with its field
 * path unless the message already names it (docs/api.md, Errors: name the field and the rule).
 */
import type { z } from "zod";

export function zodIssue(error: z.ZodError, where = "body"): string {
  const issue = error.issues[0];
  const name = issue?.path.length ? issue.path.join(".") : where;
  const message = issue?.message ?? "invalid value";
  return message.startsWith(name.split(".")[0]) ? message : `${name}: ${message}`;
}
