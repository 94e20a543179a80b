import type { FaultName } from "./faults.ts";

/**
 * The input-handling bugs real event APIs have, as switchable faults: each leaves every event of the harness's
 * faker generator accepted, and shows only on inputs the spec allows or forbids but that generator never sends.
 */
export interface FragileInput {
  /** The parsed body as the buggy server reads it (lenient dates, numbers taken for strings), before validation. */
  read(value: unknown): unknown;
  /** Whether the server fails (500) on this body before it validates it: its parser or its model breaks. */
  failsBeforeValidation(text: string, value: unknown): boolean;
  /** Whether the server fails (500) on a valid event: its store cannot hold a value the spec allows. */
  failsOnValid(value: unknown): boolean;
}

const INPUT_FAULTS = [
  "events-5xx-email-local-part",
  "events-5xx-long-reference",
  "events-5xx-quote-reference",
  "events-5xx-emoji-system",
  "events-5xx-unknown-property",
  "events-5xx-null-field",
  "events-5xx-huge-integer",
  "events-5xx-deep-nesting",
  "events-lenient-dates",
  "events-numbers-as-strings",
  "events-5xx-long-email",
  "events-5xx-idn-email",
  "events-email-shape-unchecked",
  "events-5xx-long-system-version",
  "events-5xx-non-ascii-type",
  "events-leap-every-fourth-year",
  "events-channel-prefix-unchecked",
  "events-5xx-escaped-surrogates",
] as const satisfies readonly FaultName[];

/** The names the spec gives an event's members, per object. */
const SPEC_NAMES: Readonly<Record<string, ReadonlySet<string>>> = {
  "": new Set(["type", "customer", "channel", "transaction", "system", "systemVersion"]),
  customer: new Set(["email"]),
  channel: new Set(["id"]),
  transaction: new Set(["reference", "date"]),
};
const REQUIRED_PATHS = [
  ["type"],
  ["customer"],
  ["customer", "email"],
  ["channel"],
  ["channel", "id"],
  ["transaction"],
  ["transaction", "reference"],
] as const;
const STRING_PATHS = [
  ["type"],
  ["customer", "email"],
  ["channel", "id"],
  ["transaction", "reference"],
  ["transaction", "date"],
  ["system"],
  ["systemVersion"],
] as const;

const MAX_DEPTH = 100;
/** A \\u escape of a high surrogate followed by one of a low surrogate: a character beyond the BMP, escaped. */
const ESCAPED_PAIR = /\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/;
/** February 29 of a year the naive rule (divisible by 4) takes, in the spec's form. */
const FEBRUARY_29 = /^([0-9]{4})-02-29(T.*)$/;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER) + 1n;
/** ISO 8601 forms a lenient parser takes: date only, minutes or seconds, any fraction, Z or an offset or none. */
const LENIENT_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

type Record_ = Record<string, unknown>;
const isObject = (value: unknown): value is Record_ =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

/**
 * How deep the body nests and whether it holds an integer literal beyond 2^53, read from the text as a streaming
 * parser would (JSON.parse has already rounded the integer).
 */
export function scanJsonText(text: string): { readonly depth: number; readonly hugeInteger: boolean } {
  let depth = 0;
  let deepest = 0;
  let hugeInteger = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      for (i += 1; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i += 1;
    } else if (char === "{" || char === "[") deepest = Math.max(deepest, ++depth);
    else if (char === "}" || char === "]") depth -= 1;
    else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) {
      const literal = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))?.[0] ?? char;
      if (!/[.eE]/.test(literal) && /^-?\d+$/.test(literal)) {
        const magnitude = BigInt(literal.replace("-", ""));
        if (magnitude > MAX_SAFE) hugeInteger = true;
      }
      i += literal.length - 1;
    }
  }
  return { depth: deepest, hugeInteger };
}

function unknownProperty(value: unknown): boolean {
  if (!isObject(value)) return false;
  return Object.entries(SPEC_NAMES).some(([path, names]) => {
    const object = path === "" ? value : value[path];
    return isObject(object) && Object.keys(object).some((key) => !names.has(key));
  });
}

function withValue(value: Record_, path: readonly string[], replacement: unknown): Record_ {
  const [first, second] = path as [string, string | undefined];
  if (second === undefined) return { ...value, [first]: replacement };
  return { ...value, [first]: { ...(value[first] as Record_), [second]: replacement } };
}

/** The faults of `faults` that break input handling, or undefined when there are none (the hot path stays bare). */
export function createFragileInput(faults: ReadonlySet<FaultName>): FragileInput | undefined {
  const on = new Set(INPUT_FAULTS.filter((fault) => faults.has(fault)));
  if (on.size === 0) return undefined;
  return {
    read(value) {
      if (!isObject(value)) return value;
      let read = value;
      if (on.has("events-numbers-as-strings")) {
        for (const path of STRING_PATHS) {
          const found = at(read, path);
          if (typeof found === "number" && (path.length === 1 || isObject(read[path[0]])))
            read = withValue(read, path, String(found));
        }
      }
      const email = at(read, ["customer", "email"]);
      if (on.has("events-email-shape-unchecked") && typeof email === "string" && isObject(read.customer))
        read = withValue(read, ["customer", "email"], "unchecked@example.com");
      const channel = at(read, ["channel", "id"]);
      if (on.has("events-channel-prefix-unchecked") && typeof channel === "string" && isObject(read.channel))
        read = withValue(read, ["channel", "id"], `chl-${channel}`);
      const leap = FEBRUARY_29.exec(String(at(read, ["transaction", "date"])));
      if (on.has("events-leap-every-fourth-year") && leap !== null && Number(leap[1]) % 4 === 0)
        read = withValue(read, ["transaction", "date"], `${leap[1]}-02-28${leap[2]}`);
      const date = at(read, ["transaction", "date"]);
      if (on.has("events-lenient-dates") && typeof date === "string" && LENIENT_DATE.test(date)) {
        const parsed = Date.parse(date);
        if (!Number.isNaN(parsed))
          read = withValue(read, ["transaction", "date"], new Date(parsed).toISOString());
      }
      return read;
    },
    failsBeforeValidation(text, value) {
      if (on.has("events-5xx-escaped-surrogates") && ESCAPED_PAIR.test(text)) return true;
      if (on.has("events-5xx-unknown-property") && unknownProperty(value)) return true;
      if (on.has("events-5xx-null-field") && isObject(value)) {
        if (REQUIRED_PATHS.some((path) => at(value, path) === null)) return true;
      }
      if (on.has("events-5xx-huge-integer") || on.has("events-5xx-deep-nesting")) {
        const scanned = scanJsonText(text);
        if (on.has("events-5xx-huge-integer") && scanned.hugeInteger) return true;
        if (on.has("events-5xx-deep-nesting") && scanned.depth > MAX_DEPTH) return true;
      }
      return false;
    },
    failsOnValid(value) {
      const email = at(value, ["customer", "email"]);
      const local = typeof email === "string" ? email.slice(0, email.lastIndexOf("@")) : "";
      // biome-ignore lint/suspicious/noControlCharactersInRegex: every character beyond ASCII is what the fault trips on
      if (on.has("events-5xx-email-local-part") && /[+]|[^\x00-\x7f]/.test(local)) return true;
      const reference = at(value, ["transaction", "reference"]);
      if (typeof reference === "string") {
        if (on.has("events-5xx-long-reference") && [...reference].length > 64) return true;
        if (on.has("events-5xx-quote-reference") && reference.includes("'")) return true;
      }
      if (on.has("events-5xx-long-email") && typeof email === "string" && [...email].length > 100)
        return true;
      if (on.has("events-5xx-idn-email") && typeof email === "string") {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: every character beyond ASCII is what the fault trips on
        if (/[^\x00-\x7f]/.test(email.slice(email.lastIndexOf("@") + 1))) return true;
      }
      const version = at(value, ["systemVersion"]);
      if (on.has("events-5xx-long-system-version") && typeof version === "string" && [...version].length > 50)
        return true;
      const type = at(value, ["type"]);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: every character beyond ASCII is what the fault trips on
      if (on.has("events-5xx-non-ascii-type") && typeof type === "string" && /[^\x00-\x7f]/.test(type))
        return true;
      const system = at(value, ["system"]);
      if (
        on.has("events-5xx-emoji-system") &&
        typeof system === "string" &&
        /[\u{10000}-\u{10FFFF}]/u.test(system)
      )
        return true;
      return false;
    },
  };
}
