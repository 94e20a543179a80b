/** The columns of k6's CSV output that hold no tag. */
const NOT_TAGS = new Set(["metric_name", "timestamp", "metric_value", "extra_tags", "metadata"]);

/** One tag of a k6 CSV record; undefined when the sample has no such tag. */
export type K6CsvTag = (record: readonly string[], tag: string) => string | undefined;

/**
 * Reads tags from the records under a k6 CSV header. k6 writes each system tag the run records (status, name,
 * scenario…) to a column of its own, a script's tag of the same name too, and every other tag to `extra_tags`.
 */
export function k6CsvTagReader(header: readonly string[]): K6CsvTag {
  const columns = new Map<string, number>();
  header.forEach((name, index) => {
    if (!NOT_TAGS.has(name)) columns.set(name, index);
  });
  const extra = header.indexOf("extra_tags");
  return (record, tag) => {
    const column = columns.get(tag);
    const value = column === undefined ? undefined : record[column];
    return value ? value : extraTag(extra < 0 ? undefined : record[extra], tag);
  };
}

/** k6 writes `extra_tags` as `name=value&…` without escaping, so it is split as written, not URL-decoded. */
function extraTag(raw: string | undefined, tag: string): string | undefined {
  if (!raw) return undefined;
  for (const pair of raw.split("&")) {
    const equals = pair.indexOf("=");
    if (equals >= 0 && pair.slice(0, equals) === tag) return pair.slice(equals + 1);
  }
  return undefined;
}
