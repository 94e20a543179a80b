import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";

/**
 * A secret-like value in every form a file may hold it: raw, JSON-escaped, percent- and form-encoded, and base64 or
 * base64url at each of the three byte alignments it can have inside a longer encoded stream (a ConfigMap's
 * binaryData, say), where only the groups wholly inside the value are certain.
 */
export function secretForms(value: string): Readonly<Record<string, Buffer>> {
  const bytes = Buffer.from(value, "utf8");
  const forms: Record<string, Buffer> = {
    raw: bytes,
    json: Buffer.from(JSON.stringify(value).slice(1, -1)),
    uri: Buffer.from(encodeURIComponent(value)),
    form: Buffer.from(new URLSearchParams({ v: value }).toString().slice(2)),
    percentLower: Buffer.from([...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("")),
  };
  for (const encoding of ["base64", "base64url"] as const) {
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
      const start = offset === 0 ? 0 : 4;
      const end = Math.floor((offset + bytes.length) / 3) * 4;
      forms[`${encoding}@${offset}`] = Buffer.from(encoded.slice(start, end));
    }
  }
  return forms;
}

/** The forms of `forms` found in `content`, as "form in where". */
export function formsIn(content: Buffer, forms: Readonly<Record<string, Buffer>>, where: string): string[] {
  return Object.entries(forms)
    .filter(([, form]) => content.includes(form))
    .map(([name]) => `${name} in ${where}`);
}

/** Every regular file under `dir`, with its bytes; a gzip file is read unzipped as well. */
export async function filesWithContent(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = await readFile(file);
    const name = path.relative(dir, file);
    out.set(name, content);
    if (name.endsWith(".gz")) out.set(`${name} (unzipped)`, gunzipSync(content));
  }
  return out;
}
