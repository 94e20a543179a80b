/**
 * JSON as a client may write it, beyond what JSON.stringify can: integers past 2^53 written out digit for digit,
 * and objects that repeat a key (RFC 8259 §4 leaves what a receiver makes of that open).
 */

/** A number literal written as given, e.g. `9007199254740993` or `1e400`, which no JavaScript number holds. */
export class RawNumber {
  constructor(readonly literal: string) {
    if (!/^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/.test(literal))
      throw new RangeError(`not a JSON number literal: ${literal}`);
  }
}

/** An object written member by member, so a key may appear more than once. */
export class RepeatedKeys {
  constructor(readonly members: ReadonlyArray<readonly [string, JsonText]>) {}
}

/** A value toJsonText can write. */
export type JsonText =
  | null
  | boolean
  | number
  | string
  | RawNumber
  | RepeatedKeys
  | readonly JsonText[]
  | { readonly [key: string]: JsonText };

/**
 * The JSON text of `value`, iteratively: a body nested thousands of levels deep (what a deep-nesting probe sends)
 * must not exhaust the writer's own stack.
 */
export function toJsonText(value: JsonText): string {
  const out: string[] = [];
  // Each frame is a value still to write, or a literal piece of punctuation.
  const stack: Array<{ readonly value: JsonText } | { readonly text: string }> = [{ value }];
  while (stack.length > 0) {
    const frame = stack.pop() as { value: JsonText } | { text: string };
    if ("text" in frame) {
      out.push(frame.text);
      continue;
    }
    const current = frame.value;
    if (current instanceof RawNumber) out.push(current.literal);
    else if (current instanceof RepeatedKeys) pushMembers(stack, current.members);
    else if (Array.isArray(current)) {
      const items = current as readonly JsonText[];
      stack.push({ text: "]" });
      for (let i = items.length - 1; i >= 0; i--) {
        stack.push({ value: items[i] as JsonText });
        if (i > 0) stack.push({ text: "," });
      }
      stack.push({ text: "[" });
    } else if (current !== null && typeof current === "object")
      pushMembers(stack, Object.entries(current as Record<string, JsonText>));
    else out.push(JSON.stringify(current) ?? "null");
  }
  return out.join("");
}

function pushMembers(
  stack: Array<{ readonly value: JsonText } | { readonly text: string }>,
  members: ReadonlyArray<readonly [string, JsonText]>,
): void {
  stack.push({ text: "}" });
  for (let i = members.length - 1; i >= 0; i--) {
    const [key, item] = members[i] as readonly [string, JsonText];
    stack.push({ value: item });
    stack.push({ text: `${JSON.stringify(key)}:` });
    if (i > 0) stack.push({ text: "," });
  }
  stack.push({ text: "{" });
}

/** How deeply `value` nests arrays and objects (a scalar is 0). */
export function nestingDepth(value: JsonText): number {
  let deepest = 0;
  const stack: Array<readonly [JsonText, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as readonly [JsonText, number];
    const children =
      current instanceof RepeatedKeys
        ? current.members.map(([, item]) => item)
        : current instanceof RawNumber || current === null || typeof current !== "object"
          ? undefined
          : Object.values(current);
    if (children === undefined) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of children) stack.push([child as JsonText, depth + 1]);
  }
  return deepest;
}
