/**
 * Splits CSV text into records (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks), line by
 * line, so a large k6 output streams through without being held in memory.
 */
export async function* csvRecords(lines: AsyncIterable<string>): AsyncGenerator<string[]> {
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  for await (const line of lines) {
    for (let i = 0; i < line.length; i += 1) {
      const char = line[i];
      if (quoted) {
        if (char === '"') {
          if (line[i + 1] === '"') {
            field += '"';
            i += 1;
          } else quoted = false;
        } else field += char;
      } else if (char === '"') quoted = true;
      else if (char === ",") {
        fields.push(field);
        field = "";
      } else field += char;
    }
    if (quoted) {
      // The line break belongs to a quoted field: the record goes on.
      field += "\n";
      continue;
    }
    fields.push(field);
    yield fields;
    fields = [];
    field = "";
  }
  if (quoted || field !== "" || fields.length > 0) {
    fields.push(field);
    yield fields;
  }
}
