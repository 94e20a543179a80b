/** One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): its scheme, then a token68 or auth-params. */
export interface AuthChallenge {
  /** The auth-scheme as sent; schemes compare case-insensitively. */
  readonly scheme: string;
  readonly token68?: string;
  /** The auth-params, names in lower case (they are case-insensitive), quoted values unescaped; the first of a name wins. */
  readonly params: ReadonlyMap<string, string>;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
/** A token68 that is the challenge's whole credential: followed only by whitespace, then a comma or the end. */
const TOKEN68 = /([A-Za-z0-9\-._~+/]+=*)[ \t]*(?=,|$)/y;
/** What starts another auth-param of the same challenge after a comma: `name =`, with optional whitespace. */
const PARAM_START = /[ \t]*[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/y;

class Scanner {
  index = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.index >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.index];
  }

  match(pattern: RegExp): RegExpExecArray | null {
    pattern.lastIndex = this.index;
    const found = pattern.exec(this.text);
    if (found !== null) this.index = pattern.lastIndex;
    return found;
  }

  lookingAt(pattern: RegExp): boolean {
    pattern.lastIndex = this.index;
    return pattern.test(this.text);
  }

  skipWhitespace(): void {
    while (this.peek() === " " || this.peek() === "\t") this.index += 1;
  }

  /** Skips to the next comma outside a quoted string: what is left of an element the grammar does not allow. */
  skipElement(): void {
    while (!this.done && this.peek() !== ",") {
      if (this.peek() === '"') this.quoted();
      else this.index += 1;
    }
  }

  /** A quoted-string at the cursor, unescaped; an unterminated one ends with the field. */
  quoted(): string {
    let value = "";
    this.index += 1;
    while (!this.done) {
      const char = this.text[this.index] as string;
      this.index += 1;
      if (char === '"') return value;
      if (char === "\\" && !this.done) {
        value += this.text[this.index];
        this.index += 1;
      } else value += char;
    }
    return value;
  }
}

/** `name = value` at the cursor (value a token or a quoted-string), or undefined when the element is no auth-param. */
function authParam(scanner: Scanner): readonly [string, string] | undefined {
  const name = scanner.match(TOKEN)?.[0];
  if (name === undefined) return undefined;
  scanner.skipWhitespace();
  if (scanner.peek() !== "=") return undefined;
  scanner.index += 1;
  scanner.skipWhitespace();
  if (scanner.peek() === '"') return [name.toLowerCase(), scanner.quoted()];
  const value = scanner.match(TOKEN)?.[0];
  return value === undefined ? undefined : [name.toLowerCase(), value];
}

/**
 * Every challenge of a `WWW-Authenticate` field value, several header lines joined by commas included. A comma
 * inside a quoted string separates nothing, and a comma followed by `name=` continues the same challenge's
 * auth-params; an element the grammar does not allow is skipped, never read as a challenge.
 */
export function parseChallenges(field: string): AuthChallenge[] {
  const scanner = new Scanner(field);
  const challenges: AuthChallenge[] = [];
  while (!scanner.done) {
    scanner.skipWhitespace();
    if (scanner.peek() === ",") {
      scanner.index += 1;
      continue;
    }
    if (scanner.done) break;
    const scheme = scanner.match(TOKEN)?.[0];
    if (scheme === undefined || !(scanner.done || [" ", "\t", ","].includes(scanner.peek() as string))) {
      scanner.skipElement();
      continue;
    }
    scanner.skipWhitespace();
    const params = new Map<string, string>();
    const token68 = scanner.match(TOKEN68)?.[1];
    if (token68 === undefined) {
      // auth-params, each after a comma, for as long as the next element is `name=`.
      while (!scanner.done && scanner.peek() !== ",") {
        const param = authParam(scanner);
        if (param === undefined) {
          scanner.skipElement();
        } else if (!params.has(param[0])) {
          params.set(param[0], param[1]);
        }
        scanner.skipWhitespace();
        if (scanner.peek() !== "," && !scanner.done) scanner.skipElement();
        if (scanner.peek() === ",") {
          const mark = scanner.index;
          scanner.index += 1;
          while (scanner.peek() === "," || scanner.peek() === " " || scanner.peek() === "\t")
            scanner.index += 1;
          if (!scanner.lookingAt(PARAM_START)) {
            scanner.index = mark;
            break;
          }
        }
      }
    }
    challenges.push({ scheme, ...(token68 === undefined ? {} : { token68 }), params });
  }
  return challenges;
}

/** The challenges of one scheme (compared case-insensitively), in the order sent. */
export function challengesOf(field: string, scheme: string): AuthChallenge[] {
  const wanted = scheme.toLowerCase();
  return parseChallenges(field).filter((challenge) => challenge.scheme.toLowerCase() === wanted);
}
