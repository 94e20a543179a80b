import { MAX_CSV_LINE_BYTES } from "./csv-lines.ts";

/**
 * Splits CSV text into records (RFC 4180: quoted fields may hold commas, doubled quotes and line breaks), line by
 * line, so a large k6 output streams through without being held in memory.
 */
export async function* csvRecords(
  lines: AsyncIterable<string>,
  maxRecordChars = MAX_CSV_LINE_BYTES,
): AsyncGenerator<string[]> {
  let fields: string[] = [];
  let field = "";
  let quoted = false;
  // A quoted field may run over many lines: the record, not only the line, is bounded.
  let size = 0;
  for await (const line of lines) {
    size += line.length + 1;
    if (size > maxRecordChars) {
      throw new Error(`a CSV record longer than ${maxRecordChars} characters: this is no k6 samples file`);
    }
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
    size = 0;
  }
  if (quoted || field !== "" || fields.length > 0) {
    fields.push(field);
    yield fields;
  }
}
