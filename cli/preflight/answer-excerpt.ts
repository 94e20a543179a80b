import type { Redactor } from "../../transport/index.ts";
import { describeOAuthError, inertText, oauthErrorOf } from "../../transport/index.ts";
import type { TokenAttempt } from "./token-attempt.ts";

/** How far a quoted page goes: enough to recognise it, too little to flood a log. */
export const EXCERPT_CHARS = 80;

/** The answer in a line: an OAuth error as its code and error_description (whole, or its end), else a quoted prefix. */
export function excerpt(answer: Extract<TokenAttempt, { kind: "answer" }>, redactor: Redactor): string {
  const type = answer.contentType ? ` ${inertText(answer.contentType.split(";")[0] ?? "")}` : "";
  const oauthError = oauthErrorOf(answer.text);
  if (oauthError !== undefined) return `${answer.status}${type} ${describeOAuthError(oauthError, redactor)}`;
  // Only the quoted prefix is made inert and redacted: the body may be a megabyte.
  const { text, cut } = redactor.untrustedPrefix(answer.text.replace(/\s+/g, " ").trim(), EXCERPT_CHARS);
  const short = cut ? `${text}…` : text;
  return `${answer.status}${type}${short ? ` "${short}"` : ""}`;
}
