import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { scrubDashboard } from "../../../cli/load/index.ts";
import { Redactor } from "../../../transport/index.ts";

const SECRET = "dashboard-secret-value";

function dashboard(data: string): string {
  return `<html><p>${SECRET}</p><script id="data" type="application/json">${gzipSync(data).toString("base64")}</script></html>`;
}

function embedded(html: string): string {
  const payload = /<script[^>]*id="data"[^>]*>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
  return gunzipSync(Buffer.from(payload, "base64")).toString("utf8");
}

describe("scrubDashboard", () => {
  const redactor = new Redactor().add(SECRET, "<CLIENT_SECRET>");

  it("redacts the page and the gzipped data it embeds", () => {
    const clean = scrubDashboard(dashboard(`{"url":"https://x/?s=${SECRET}"}`), redactor);
    expect(clean).not.toContain(SECRET);
    expect(embedded(clean)).toBe('{"url":"https://x/?s=<CLIENT_SECRET>"}');
  });

  it("leaves clean data as it was", () => {
    const html = dashboard('{"metrics":[1,2,3]}');
    const clean = scrubDashboard(html, redactor);
    expect(embedded(clean)).toBe('{"metrics":[1,2,3]}');
    expect(clean).toBe(html.replace(SECRET, "<CLIENT_SECRET>"));
  });
});
