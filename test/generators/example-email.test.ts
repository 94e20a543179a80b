import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toSafeLocalPart } from "../../generators/example-email.ts";
import { EXAMPLE_EMAIL_DOMAINS, isExampleEmail } from "../../generators/index.ts";

describe("isExampleEmail", () => {
  it("accepts only the RFC 2606 example domains, exactly", () => {
    for (const domain of EXAMPLE_EMAIL_DOMAINS) expect(isExampleEmail(`ada@${domain}`)).toBe(true);
    for (const address of [
      "ada@gmail.com",
      "ada@example.co",
      "ada@example.com.evil.net",
      "ada@sub.example.com",
      "ada@notexample.com",
      "ada@EXAMPLE.COM.attacker.io",
      "@example.com",
      "ada @example.com",
    ]) {
      expect(isExampleEmail(address), address).toBe(false);
    }
  });
});

describe("toSafeLocalPart", () => {
  it.each([
    ["Jeanne_Doe96@example.net", "Jeanne_Doe96"],
    ["O'Keefe.Renée@example.com", "OKeefe.Renee"],
    [".lead..dots.@example.com", "lead.dots"],
    ["Фёдор@example.com", "customer"],
    [`${"a".repeat(70)}@example.com`, "a".repeat(64)],
    [`${"a".repeat(63)}.b@example.com`, "a".repeat(63)],
  ])("turns %s into %s, which strict validators accept", (address, local) => {
    expect(toSafeLocalPart(address)).toBe(local);
    expect(z.email().safeParse(`${local}@example.com`).success).toBe(true);
  });
});
