import { describe, expect, it } from "vitest";
import { classKey } from "../../generators/index.ts";

describe("classKey", () => {
  it("joins field and name, and the client authentication in front when the class has one", () => {
    expect(classKey({ field: "customer.email", name: "atext" })).toBe("customer.email/atext");
    expect(classKey({ field: "client_secret", name: "truncated", via: "client_secret_basic" })).toBe(
      "client_secret_basic/client_secret/truncated",
    );
  });

  it("keeps letters, digits, . _ - in the field and makes anything else a -", () => {
    expect(classKey({ field: "Content-Type", name: "media-type-forms" })).toBe(
      "Content-Type/media-type-forms",
    );
    expect(classKey({ field: "a b/c:d\u00e9", name: "n" })).toBe("a-b-c-d-/n");
    expect(classKey({ field: "", name: "n" })).toBe("/n");
  });

  it("leaves the name as it is: names are kebab-case already", () => {
    expect(classKey({ field: "f", name: "tail-astral" })).toBe("f/tail-astral");
  });
});
