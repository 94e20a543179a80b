import { describe, expect, it } from "vitest";
import { displayUrl } from "../../../cli/load/display-url.ts";

describe("displayUrl", () => {
  it("drops the user name and password a URL carries", () => {
    const shown = displayUrl("https://alice:s3cr3t-pass@api.example.test:8443/v1/events?x=1");
    expect(shown).toBe("https://api.example.test:8443/v1/events?x=1");
    expect(shown).not.toContain("s3cr3t-pass");
    expect(shown).not.toContain("alice");
  });

  it("drops a user name given without a password", () => {
    expect(displayUrl("http://bob@127.0.0.1:3000/api")).toBe("http://127.0.0.1:3000/api");
  });

  it("drops trailing slashes, the root's too", () => {
    expect(displayUrl("http://127.0.0.1:3000/api///")).toBe("http://127.0.0.1:3000/api");
    expect(displayUrl("http://127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
  });

  it("shows a placeholder, not the raw text, for what is no URL", () => {
    expect(displayUrl("not a url with secret-ish text")).toBe("<invalid url>");
    expect(displayUrl("")).toBe("<invalid url>");
  });
});
