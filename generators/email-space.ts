import { domainToASCII } from "node:url";
import fc from "fast-check";
import type { EventInput } from "./event-input.ts";
import { fieldClass, input, withValue } from "./event-input.ts";
import { EXAMPLE_EMAIL_DOMAINS } from "./example-email.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { WideEventOptions } from "./wide-event.ts";

/*
 * customer.email's value space from the standards the spec's "E-mail address" names: RFC 5322's addr-spec, RFC
 * 5321's lengths, RFC 6531/6532's internationalised addresses and IDNA 2008's domains. Every domain is one of RFC
 * 2606's example domains or a name under them, so no mail can reach anyone.
 */

/** RFC 5321 §4.5.3.1: a local part holds 64 octets, a label 63, a domain 255; a forward-path 256 with its < and >. */
const MAX_LOCAL = 64;
const MAX_LABEL = 63;
const MAX_ADDRESS = 254;

const octets = (text: string) => new TextEncoder().encode(text).length;
const ALNUM = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"];
/** RFC 5322 §3.2.3 atext beyond letters and digits. */
const ATEXT_SPECIALS = "!#$%&'*+/=?^_`{|}~-";
/** Letters beyond ASCII, in the Basic Multilingual Plane, as RFC 6531 local parts take them. */
const LETTERS = [..."éüöäßçñøåłžčğıΔδλΩωЖжДдЯя李王用户例えアイウ한글ابتשלוםनमस"];
/**
 * Lower-case letters of one script per label, as IDNA 2008 (RFC 5892) takes them: a label never mixes scripts
 * written in opposite directions (RFC 5893), and holds no capitals.
 */
const SCRIPTS = [
  "éüöäçñøåłžčğ",
  "δλωοκιμή",
  "жддяабвг",
  "李王用户例え",
  "한글테스트",
  "ابتثج",
  "שלוםאב",
  "नमसकर",
].map((letters) => [...letters]);

const alnum = fc.constantFrom(...ALNUM);
const domain = fc.constantFrom(...EXAMPLE_EMAIL_DOMAINS);

/** `count` octets of ASCII letters and digits, in dot-separated atoms of at most `atom` characters. */
function asciiLocal(count: number, atom = 16): string {
  let out = "";
  for (let i = 0; i < count; i++)
    out += i % (atom + 1) === atom && i < count - 1 ? "." : (ALNUM[i % 26] ?? "a");
  return out;
}

/** A domain under example.com of exactly `length` octets, in labels of at most 63. */
function domainOf(length: number): string {
  const suffix = ".example.com";
  let rest = length - suffix.length;
  const labels: string[] = [];
  while (rest > 0) {
    const label = Math.min(MAX_LABEL, rest === MAX_LABEL + 1 ? MAX_LABEL - 1 : rest);
    labels.push("d".repeat(label));
    rest -= label + 1;
  }
  return `${labels.join(".")}${suffix}`;
}

const ASCII_LABEL = fc.string({ unit: alnum, minLength: 1, maxLength: MAX_LABEL });
const U_LABEL = fc
  .constantFrom(...SCRIPTS)
  .chain((letters) => fc.string({ unit: fc.constantFrom(...letters), minLength: 1, maxLength: 12 }))
  // A label IDNA refuses (a joiner or a script rule) is no domain: domainToASCII gives "" for it.
  .filter((label) => domainToASCII(`${label}.example.com`) !== "");

/** A class of addresses: a cover list and drawn addresses, each put in the event's customer.email. */
function emailClass(
  options: WideEventOptions,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly string[],
  values: fc.Arbitrary<string>,
): InputClass<EventInput> {
  return fieldClass(options, {
    field: "customer.email",
    name,
    description,
    expect,
    cover,
    values,
    make: (event, email) =>
      input(
        `customer.email ${JSON.stringify(email.length > 80 ? `${email.slice(0, 40)}…${email.slice(-20)}` : email)} (${octets(email)} octets; ${description})`,
        withValue(event, ["customer", "email"], email),
      ),
  });
}

/**
 * The e-mail classes: addresses every reading takes (accepted), addresses only some readings take (answered: the
 * spec does not say which), and strings that are no address on any reading (refused).
 */
export function emailClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const atoms = fc
    .array(fc.string({ unit: alnum, minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 4 })
    .map((parts) => parts.join("."));
  return [
    emailClass(
      options,
      "local-part-lengths",
      "accepted",
      "ASCII local parts from 1 to 64 octets, the most RFC 5321 §4.5.3.1.1 allows",
      [
        `${asciiLocal(MAX_LOCAL)}@example.com`,
        "a@example.com",
        `${asciiLocal(MAX_LOCAL - 1)}@example.org`,
        "A.B@EXAMPLE.NET",
      ],
      fc
        .tuple(fc.integer({ min: 1, max: MAX_LOCAL }), domain)
        .map(([length, at]) => `${asciiLocal(length, 1 + (length % 16))}@${at}`),
    ),
    emailClass(
      options,
      "atext",
      "accepted",
      "every character RFC 5322 §3.2.3 allows in a dot-atom, dots between atoms, + tags",
      [`${ATEXT_SPECIALS}@example.com`, "first.last+tag@example.org", "a+@example.net"],
      fc
        .tuple(
          fc.array(
            fc.string({ unit: fc.constantFrom(...ALNUM, ...ATEXT_SPECIALS), minLength: 1, maxLength: 10 }),
            {
              minLength: 1,
              maxLength: 4,
            },
          ),
          domain,
        )
        .map(([parts, at]) => `${parts.join(".")}@${at}`),
    ),
    emailClass(
      options,
      "domain-lengths",
      "accepted",
      "domains of many labels, a label of 63 octets, an address of 254 octets (RFC 5321 §4.5.3.1)",
      [
        `${asciiLocal(MAX_LOCAL)}@${domainOf(MAX_ADDRESS - MAX_LOCAL - 1)}`,
        `a@${"l".repeat(MAX_LABEL)}.example.com`,
        "a@a.b.c.d.e.f.g.h.example.net",
      ],
      fc
        .tuple(atoms, fc.array(ASCII_LABEL, { minLength: 1, maxLength: 3 }), domain)
        .map(([local, labels, at]) => `${local}@${labels.join(".")}.${at}`)
        .filter((email) => octets(email) <= MAX_ADDRESS),
    ),
    emailClass(
      options,
      "idna-a-label",
      "accepted",
      "a domain with an IDNA A-label (xn--, RFC 5891): plain ASCII on the wire",
      ["kunde@xn--mller-kva.example.com", "a@xn--r8jz45g.example.org", "a@xn--jxalpdlp.example.net"],
      fc
        .tuple(atoms, U_LABEL, domain)
        .map(([local, label, at]) => `${local}@${domainToASCII(`${label}.${at}`)}`),
    ),
    emailClass(
      options,
      "idna-u-label",
      "accepted",
      "a domain with a U-label (RFC 6531 §3.3, IDNA 2008): letters beyond ASCII",
      ["kunde@müller.example.com", "a@例え.example.org", "δοκιμή@δοκιμή.example.net"],
      fc.tuple(atoms, U_LABEL, domain).map(([local, label, at]) => `${local}@${label}.${at}`),
    ),
    emailClass(
      options,
      "internationalised-local-part",
      "accepted",
      "a local part of letters beyond ASCII (RFC 6531 §3.3, RFC 6532 §3.2)",
      ["用户@example.com", "josé.garcía@example.org", "Δοκιμή@example.net"],
      fc
        .tuple(
          fc.string({ unit: fc.constantFrom(...LETTERS, ...ALNUM), minLength: 1, maxLength: 20 }),
          domain,
        )
        .map(([local, at]) => `${local}@${at}`),
    ),
    emailClass(
      options,
      "quoted-local-part",
      "answered",
      "a quoted local part (RFC 5322 §3.4.1 quoted-string), which no checkout form takes",
      ['"john doe"@example.com', '"a@b"@example.org', '"\\"q\\""@example.net', '""@example.com'],
      fc
        .tuple(
          fc.string({ unit: fc.constantFrom(...ALNUM, " ", "@", ",", ".", "(", ")"), maxLength: 20 }),
          domain,
        )
        .map(([local, at]) => `"${local}"@${at}`),
    ),
    emailClass(
      options,
      "address-literal",
      "answered",
      "an address literal instead of a domain (RFC 5321 §4.1.3), at documentation addresses",
      ["a@[192.0.2.1]", "a@[IPv6:2001:db8::1]"],
      fc.integer({ min: 0, max: 255 }).map((last) => `a@[192.0.2.${last}]`),
    ),
    emailClass(
      options,
      "past-rfc-5321-lengths",
      "answered",
      "past RFC 5321's limits: a 65-octet local part, a 64-octet label, an address past 254 octets",
      [
        `${asciiLocal(MAX_LOCAL + 1)}@example.com`,
        `a@${"l".repeat(MAX_LABEL + 1)}.example.com`,
        `${asciiLocal(MAX_LOCAL)}@${domainOf(MAX_ADDRESS - MAX_LOCAL)}`,
      ],
      fc.integer({ min: MAX_LOCAL + 1, max: 1_000 }).map((length) => `${asciiLocal(length)}@example.com`),
    ),
    emailClass(
      options,
      "other-forms",
      "answered",
      "forms some readings take: a symbol beyond the BMP, a one-label domain, a trailing dot, padding, a comment",
      ["😀@example.com", "a@example", "a@example.com.", " a@example.com ", "a(comment)@example.com"],
      fc.constantFrom("🛒@example.org", "a@test", "a@example.org.", "\ta@example.net"),
    ),
    emailClass(
      options,
      "not-an-address",
      "refused",
      "no address on any reading: no @, an empty part, two @, a display name, spaces, misplaced dots, bad labels",
      [
        "customer.example.com",
        "@example.com",
        "a@",
        "a@b@example.com",
        "Ada <ada@example.com>",
        "a b@example.com",
        ".a@example.com",
        "a.@example.com",
        "a..b@example.com",
        "a@-example.com",
        "a@example-.com",
        "a@ex_ample.com",
        "",
      ],
      fc
        .tuple(atoms, domain, fc.constantFrom("@@", " @", "@.", ".@", "@ ", ""))
        .map(([local, at, bad]) => (bad === "" ? `${local}${at}` : `${local}${bad}${at}`)),
    ),
  ];
}
