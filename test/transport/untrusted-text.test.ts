import { describe, expect, it } from "vitest";
import { inertText } from "../../transport/index.ts";

describe("inertText", () => {
  it("shows C0 and C1 controls, DEL and line breaks as visible escapes", () => {
    expect(inertText("a\u001b[2Jb\u0007c\u0000d\r\ne\tf\u007fg\u009bh\u0085i")).toBe(
      "a\\x1b[2Jb\\x07c\\x00d\\r\\ne\\tf\\x7fg\\x9bh\\x85i",
    );
  });

  it("keeps a target's text on one line, so nothing it sends starts a line of its own", () => {
    const text = inertText("ok\n::error::forged\r\n::add-mask::x\u2028PASS  token.issued\u2029");
    expect(text.split("\n")).toHaveLength(1);
    expect(text).toBe("ok\\n::error::forged\\r\\n::add-mask::x\\u2028PASS  token.issued\\u2029");
  });

  it("escapes an OSC 8 link, bidirectional overrides, non-characters and lone surrogates", () => {
    expect(inertText("\u001b]8;;https://evil/\u001b\\x\u001b]8;;\u001b\\")).toBe(
      "\\x1b]8;;https://evil/\\x1b\\x\\x1b]8;;\\x1b\\",
    );
    expect(inertText("a\u202eb\u2066c\ufffed\uffffe\ud800f\udc00")).toBe(
      "a\\u202eb\\u2066c\\ufffed\\uffffe\\ud800f\\udc00",
    );
  });

  it("leaves printable text alone, astral characters included, and is idempotent", () => {
    const text = "Grüße 😀 <b>&amp; | `x` \\x1b";
    expect(inertText(text)).toBe(text);
    const once = inertText("\u001b\n\ufffe");
    expect(inertText(once)).toBe(once);
  });

  it("takes the workflow command out of text that may start a CI log line, and legacy ##[ commands anywhere", () => {
    // A GitHub runner trims a line's leading whitespace, then obeys ::name::; it obeys ##[name] anywhere in a line.
    expect(inertText("::error::forged")).toBe("\\x3a:error::forged");
    expect(inertText("   ::add-mask::x")).toBe("   \\x3a:add-mask::x");
    expect(inertText("\u00a0::stop-commands::t")).toBe("\u00a0\\x3a:stop-commands::t");
    expect(inertText("ok ##[error]forged ##[stop-commands]t")).toBe(
      "ok ##\\x5berror]forged ##\\x5bstop-commands]t",
    );
    // Within a line `::` is text: IPv6 loopback, a C++ name, an issue title.
    expect(inertText("http://[::1]:8080 std::string a::b")).toBe("http://[::1]:8080 std::string a::b");
    for (const text of ["::error::x", " ##[group]y"])
      expect(inertText(inertText(text))).toBe(inertText(text));
  });
});
