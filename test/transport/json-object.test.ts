import { describe, expect, it } from "vitest";
import { jsonObjectOf } from "../../transport/index.ts";

describe("jsonObjectOf", () => {
  it("gives the object a body holds", () => {
    expect(jsonObjectOf('{"error":"invalid_client","n":1}')).toEqual({ error: "invalid_client", n: 1 });
  });

  it.each(["", "not json", "[]", '["a"]', "null", '"text"', "42", "true", "{"])(
    "gives nothing for %j",
    (text) => {
      expect(jsonObjectOf(text)).toBeUndefined();
    },
  );
});
