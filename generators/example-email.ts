/**
 * The second-level domains RFC 2606 §3 reserves for documentation: mail to them is never delivered,
 * so a load test that sends thousands of events can never reach a real inbox.
 */
export const EXAMPLE_EMAIL_DOMAINS = ["example.com", "example.net", "example.org"] as const;

const EXAMPLE_EMAIL = /^[^@\s]+@example\.(?:com|net|org)$/;

/** Whether an address is on one of the reserved example domains (and only there: no subdomains, no look-alikes). */
export function isExampleEmail(address: string): boolean {
  return EXAMPLE_EMAIL.test(address);
}

/** RFC 5321 §4.5.3.1.1: a local part holds at most 64 octets. */
const MAX_LOCAL_PART = 64;

/**
 * Reduces a faker-made address to a conservative local part (letters, digits, `.`, `_`, `-`; no leading, trailing or
 * doubled dots), so every generated address passes strict validators whatever the locale data contains.
 */
export function toSafeLocalPart(address: string, fallback = "customer"): string {
  const at = address.lastIndexOf("@");
  const local = (at === -1 ? address : address.slice(0, at))
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]/g, "")
    .replace(/\.{2,}/g, ".")
    .replace(/^\.+|\.+$/g, "")
    .slice(0, MAX_LOCAL_PART)
    .replace(/\.+$/, "");
  return local.length > 0 ? local : fallback;
}
