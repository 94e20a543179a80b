import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { expect } from "vitest";

/**
 * Every file under `dir` as text, each with its name, so a search for secrets misses nothing: gzipped files are
 * unpacked too, and so is the gzipped base64 data a k6 dashboard embeds in its page.
 */
export async function everyFileText(dir: string): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const raw = await readFile(file);
    const text = raw.toString("utf8");
    out.push([file, text]);
    if (file.endsWith(".gz")) out.push([`${file} (unpacked)`, gunzipSync(raw).toString("utf8")]);
    const data = /<script[^>]*id="data"[^>]*>([\s\S]*?)<\/script>/.exec(text)?.[1];
    if (data) out.push([`${file} (data)`, gunzipSync(Buffer.from(data.trim(), "base64")).toString("utf8")]);
  }
  return out;
}

/** Every file under `dir` as it is, by its path below `dir`: what a test names file by file. */
export async function filesUnder(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out.set(full.slice(dir.length + 1), await readFile(full, "utf8"));
  }
  return out;
}

/** Eight or more base64url characters on each side of a dot after a JSON header: an access token (a JWS). */
export const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

/** `text` holds none of `secrets`, raw or URL-encoded, and no access token; `where` names it in a failure. */
export function expectNoSecret(where: string, text: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(text.includes(secret), `${where} holds a secret`).toBe(false);
    expect(text.includes(encodeURIComponent(secret)), `${where} holds a secret, URL-encoded`).toBe(false);
  }
  expect(JWT.exec(text)?.[0], `${where} holds an access token`).toBeUndefined();
}
