import { createHash } from "node:crypto";
import { escapeHtml } from "./html-escape.ts";
import { REPORT_SCRIPT } from "./html-script.ts";
import { REPORT_CSS } from "./html-styles.ts";

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The HTML document around a report body. Its Content-Security-Policy allows only this page's own style and script
 * (by hash) and no network at all, so even a response that slipped past escaping could neither run nor phone home.
 */
export function renderPage(title: string, body: string): string {
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(REPORT_CSS)}`,
    `script-src ${sha256(REPORT_SCRIPT)}`,
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    // Built from constants and base64 hashes only: nothing in it needs escaping.
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${REPORT_CSS}</style>`,
    "</head>",
    `<body>${body}<script>${REPORT_SCRIPT}</script></body>`,
    "</html>",
    "",
  ].join("\n");
}
