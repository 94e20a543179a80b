import { z } from "zod";

/** RFC 6749 Appendix A.2: a client secret is VSCHAR; a space at either end would not survive `$(cat FILE)`. */
const VSCHAR_SECRET = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
/** Whole seconds since the epoch that a date can hold (ECMAScript's ±8.64e15 ms). */
const epochSeconds = z.int().min(0).max(8_640_000_000_000);

/** What the sandbox's admin endpoint answers with 200, for the client that was asked for. */
function rotationAnswerSchema(clientId: string) {
  return z.object({
    client_id: z.string().refine((id) => id === clientId, "is not the client that was asked for"),
    client_secret: z
      .string()
      .max(4096)
      .regex(VSCHAR_SECRET, "is not printable ASCII without a space at either end (RFC 6749 Appendix A.2)")
      // Printed alone on a line by --show-secret, where a CI log would obey it.
      .refine((secret) => !secret.startsWith("::"), "starts with '::', a workflow command in a CI log"),
    "not-before-policy": epochSeconds,
    old_secret_valid_until: epochSeconds.nullable(),
  });
}

const EXPECTED: Readonly<Record<string, string>> = {
  int: "a whole number of seconds",
  number: "a whole number of seconds",
  string: "a string",
  object: "a JSON object",
};

export type RotationAnswer = z.infer<ReturnType<typeof rotationAnswerSchema>>;

/**
 * Checks an admin answer before anything is written or printed from it: the answer, or what is wrong with it in
 * the harness's words (field names and rules, never a value the server sent).
 */
export function readRotationAnswer(
  body: unknown,
  clientId: string,
):
  | { readonly ok: true; readonly answer: RotationAnswer }
  | { readonly ok: false; readonly problems: string } {
  const parsed = rotationAnswerSchema(clientId).safeParse(body);
  if (parsed.success) return { ok: true, answer: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".") || "the answer";
    const rule =
      issue.code === "invalid_type"
        ? `must be ${EXPECTED[issue.expected] ?? issue.expected}`
        : issue.code === "too_big" || issue.code === "too_small"
          ? issue.origin === "string"
            ? "is longer than a client secret"
            : "is not a time a date can hold"
          : issue.message;
    return `${field} ${rule}`;
  });
  return { ok: false, problems: [...new Set(problems)].join("; ") };
}
