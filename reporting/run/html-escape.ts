const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML content and quoted attribute values alike: target responses are never trusted. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** A relative link target that cannot smuggle a scheme (javascript:, data:) or leave the report's folder tree. */
export function safeHref(relativePath: string): string {
  const clean = relativePath.replaceAll("\\", "/");
  if (/^[a-z][a-z0-9+.-]*:/i.test(clean) || clean.startsWith("/") || clean.split("/").includes("..")) {
    throw new RangeError(`not a relative report path: ${relativePath}`);
  }
  return clean
    .split("/")
    .map((segment) => encodeURIComponent(segment))
    .join("/");
}
