/** A JSON path: object keys and array indexes from the root. */
export type JsonPath = readonly (string | number)[];

/** Deep-copies a JSON value (plain objects, arrays, primitives) and keeps key order. */
export function cloneJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  if (value !== null && typeof value === "object") {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = cloneJson(item);
    return copy as T;
  }
  return value;
}

/** A deep copy of `root` with the value at `path` replaced in place, so key order is unchanged. */
export function withValueAt(root: unknown, path: JsonPath, value: unknown): unknown {
  const copy = cloneJson(root);
  const { parent, key } = locate(copy, path);
  (parent as Record<string | number, unknown>)[key] = value;
  return copy;
}

/** A deep copy of `root` without the member at `path`. */
export function withoutValueAt(root: unknown, path: JsonPath): unknown {
  const copy = cloneJson(root);
  const { parent, key } = locate(copy, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete (parent as Record<string | number, unknown>)[key];
  return copy;
}

function locate(root: unknown, path: JsonPath): { parent: object; key: string | number } {
  const key = path.at(-1);
  if (key === undefined) throw new RangeError("a path to edit must name at least one member");
  let parent: unknown = root;
  for (const step of path.slice(0, -1)) {
    parent =
      parent !== null && typeof parent === "object"
        ? (parent as Record<string | number, unknown>)[step]
        : undefined;
  }
  if (parent === null || typeof parent !== "object" || !(key in parent)) {
    throw new RangeError(`no member at ${path.join(".")} to edit`);
  }
  return { parent, key };
}
