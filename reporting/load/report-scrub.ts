import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Redactor } from "../../transport/index.ts";
import { instanceDirs, REPORT_FILES } from "./report-files.ts";

/** The dashboard embeds its data gzipped and base64-encoded, where a plain text search would miss a secret. */
const DASHBOARD_DATA = /(<script[^>]*id="data"[^>]*>)([\s\S]*?)(<\/script>)/;

/** Redacts a dashboard export, its compressed data included. */
export function scrubDashboard(html: string, redactor: Redactor): string {
  const outer = redactor.redact(html);
  const match = DASHBOARD_DATA.exec(outer);
  if (match === null) return outer;
  const [whole, open, payload, close] = match as unknown as [string, string, string, string];
  let data: string;
  try {
    data = gunzipSync(Buffer.from(payload.trim(), "base64")).toString("utf8");
  } catch {
    return outer;
  }
  const clean = redactor.redact(data);
  if (clean === data) return outer;
  return outer.replace(whole, `${open}${gzipSync(clean).toString("base64")}${close}`);
}

/** Redacts the run's report files in place; returns the files that held a secret (which should never happen). */
export async function scrubReports(dir: string, redactor: Redactor): Promise<string[]> {
  const leaked: string[] = [];
  const dirs = [dir, ...(await instanceDirs(dir))];
  for (const [base, name] of dirs.flatMap((d) => REPORT_FILES.map((n) => [d, n] as const))) {
    const file = path.join(base, name);
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const clean = name.endsWith(".html") ? scrubDashboard(text, redactor) : redactor.redact(text);
    if (clean !== text) {
      await writeFile(file, clean);
      leaked.push(path.relative(dir, file));
    }
  }
  return leaked;
}
