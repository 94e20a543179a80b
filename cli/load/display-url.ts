/** A URL fit for reports and logs: userinfo dropped. */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    return url.toString().replace(/\/+$/, "");
  } catch {
    return "<invalid url>";
  }
}
