import { domainToASCII } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { emailClasses } from "../../generators/index.ts";

const octets = (text: string) => Buffer.byteLength(text, "utf8");
const event = (input: EventInput) =>
  JSON.parse(input.body) as { customer: { email: string }; channel: { id: string }; type: string };
const emailOf = (input: EventInput) => event(input).customer.email;

/** Built once: the classes are immutable, and building them (long values included) is the slow part. */
const CLASSES = emailClasses();

function byName(name: string, classes = CLASSES): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** Whether the part after the last @ is a name RFC 2606 reserves, or a documentation address (RFC 5737, RFC 3849). */
function reservedDomain(email: string): boolean {
  const at = email.lastIndexOf("@");
  const domain = email.slice(at + 1).trim();
  if (/^\[192\.0\.2\.\d{1,3}\]$/.test(domain)) return true;
  if (/^\[IPv6:2001:db8:/i.test(domain)) return true;
  const ascii = (domainToASCII(domain) || domain).toLowerCase().replace(/\.$/, "");
  return ascii === "example" || ascii === "test" || /(^|\.)example\.(com|net|org)$/.test(ascii);
}

describe("emailClasses", () => {
  it("holds the accepted, answered and refused classes of customer.email", () => {
    expect(CLASSES.map((c) => [c.field, c.name, c.expect])).toEqual([
      ["customer.email", "local-part-lengths", "accepted"],
      ["customer.email", "atext", "accepted"],
      ["customer.email", "domain-lengths", "accepted"],
      ["customer.email", "idna-a-label", "accepted"],
      ["customer.email", "idna-u-label", "accepted"],
      ["customer.email", "internationalised-local-part", "accepted"],
      ["customer.email", "quoted-local-part", "answered"],
      ["customer.email", "address-literal", "answered"],
      ["customer.email", "past-rfc-5321-lengths", "answered"],
      ["customer.email", "other-forms", "answered"],
      ["customer.email", "not-an-address", "refused"],
    ]);
  });

  it("covers RFC 5321's limits exactly: a 64-octet local part and a 254-octet address, then one octet past each", () => {
    const local = (email: string) => email.slice(0, email.lastIndexOf("@"));
    const [longest] = byName("local-part-lengths").cover.map(emailOf);
    expect(octets(local(longest ?? ""))).toBe(64);
    const [widest, label] = byName("domain-lengths").cover.map(emailOf);
    expect(octets(widest ?? "")).toBe(254);
    expect(label?.split("@")[1]?.split(".")[0]).toHaveLength(63);
    const past = byName("past-rfc-5321-lengths").cover.map(emailOf);
    expect(octets(local(past[0] ?? ""))).toBe(65);
    expect(past[1]?.split("@")[1]?.split(".")[0]).toHaveLength(64);
    expect(octets(past[2] ?? "")).toBe(255);
  });

  it("keeps every label of the widest address within 63 octets and its local part in dot-atoms", () => {
    const [widest] = byName("domain-lengths").cover.map(emailOf);
    const [localPart = "", domain = ""] = (widest ?? "").split("@");
    for (const label of domain.split(".")) expect(label.length).toBeGreaterThan(0);
    for (const label of domain.split(".")) expect(label.length).toBeLessThanOrEqual(63);
    expect(localPart).toMatch(/^[A-Za-z0-9]+(\.[A-Za-z0-9]+)*$/);
  });

  it("sends every address, covered or drawn, only to a reserved domain, so no mail can reach anyone", () => {
    for (const cls of CLASSES) {
      const drawn = fc.sample(cls.arbitrary, { seed: 11, numRuns: 30 });
      // The refused cover breaks domains on purpose (a@-example.com): its drawn strings are judged.
      const judged = cls.expect === "refused" ? drawn : [...cls.cover, ...drawn];
      for (const input of judged) {
        const email = emailOf(input);
        if (cls.expect === "refused" && !/@.*[^\s.]/.test(email)) continue;
        expect(reservedDomain(email), `${cls.name}: ${email}`).toBe(true);
      }
    }
  });

  it("draws accepted ASCII local parts between 1 and 64 octets", () => {
    const drawn = fc.sample(byName("local-part-lengths").arbitrary, { seed: 5, numRuns: 200 }).map(emailOf);
    for (const email of drawn) {
      const local = email.slice(0, email.lastIndexOf("@"));
      expect(octets(local), email).toBeGreaterThanOrEqual(1);
      expect(octets(local), email).toBeLessThanOrEqual(64);
      expect(local, email).toMatch(/^[A-Za-z0-9]+(\.[A-Za-z0-9]+)*$/);
    }
  });

  it("changes only customer.email of the fixed cover event, and takes the target's channel and type", () => {
    const classes = emailClasses({ channels: ["chl-shop-7", "chl-other"], type: "checkout.v2" });
    for (const input of byName("atext", classes).cover) {
      const body = JSON.parse(input.body) as Record<string, Record<string, string> | string>;
      expect(input.contentType).toBe("application/json");
      expect({ ...body, customer: undefined, transaction: undefined }).toEqual({
        type: "checkout.v2",
        customer: undefined,
        channel: { id: "chl-shop-7" },
        transaction: undefined,
        system: "shop-backend",
        systemVersion: "1.0.0",
      });
    }
    expect(byName("atext", classes).cover.map(emailOf)).toEqual([
      "!#$%&'*+/=?^_`{|}~-@example.com",
      "first.last+tag@example.org",
      "a+@example.net",
    ]);
  });

  it("says in each input's description the address (shortened past 80 characters) and its octets", () => {
    const [widest] = byName("domain-lengths").cover;
    expect(widest?.what).toContain("(254 octets; ");
    expect(widest?.what).toContain("…");
    expect(widest?.what.length).toBeLessThan(254);
    const [short] = byName("not-an-address").cover;
    expect(short?.what).toBe(
      `customer.email "customer.example.com" (20 octets; ${byName("not-an-address").description})`,
    );
  });

  it("keeps the hostile cover strings exact, the empty one included", () => {
    const refused = byName("not-an-address").cover.map(emailOf);
    expect(refused).toContain("");
    expect(refused).toContain("Ada <ada@example.com>");
    expect(refused).toHaveLength(13);
    expect(byName("other-forms").cover.map(emailOf)).toContain(" a@example.com ");
  });
});
