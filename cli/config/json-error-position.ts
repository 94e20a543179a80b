/**
 * Where the first JSON syntax error in text is, as line and column (1-based), or undefined when the text parses.
 * Node 20's JSON.parse names no position for an unexpected token and quotes the text instead, which may hold a
 * value the user must not see echoed; this scanner finds the place without quoting anything.
 */
export function jsonErrorPosition(text: string): { line: number; column: number } | undefined {
  let at = 0;
  const fail = (): never => {
    throw new ScanError(at);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] as string)) at++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail();
      at++;
    }
  };
  const string = () => {
    at++;
    while (at < text.length) {
      const char = text[at] as string;
      if (char === '"') {
        at++;
        return;
      }
      if (char < " ") fail();
      if (char === "\\") {
        at++;
        const escaped = text[at];
        if (escaped === "u") {
          for (let i = 0; i < 4; i++) {
            at++;
            if (!/[0-9a-fA-F]/.test(text[at] ?? "")) fail();
          }
        } else if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail();
      }
      at++;
    }
    fail();
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null) fail();
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (depth: number): void => {
    if (depth > 512) fail();
    space();
    const char = text[at];
    if (char === "{") {
      at++;
      space();
      if (text[at] === "}") {
        at++;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ":") fail();
        at++;
        value(depth + 1);
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "}") {
          at++;
          return;
        } else fail();
      }
    }
    if (char === "[") {
      at++;
      space();
      if (text[at] === "]") {
        at++;
        return;
      }
      for (;;) {
        value(depth + 1);
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "]") {
          at++;
          return;
        } else fail();
      }
    }
    if (char === '"') string();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else number();
  };
  try {
    value(0);
    space();
    if (at < text.length) fail();
    return undefined;
  } catch (error) {
    if (!(error instanceof ScanError)) throw error;
    return lineAndColumn(text, error.offset);
  }
}

class ScanError extends Error {
  constructor(readonly offset: number) {
    super("JSON syntax error");
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}
