import { describe, expect, it } from "vitest";
import { EnvError } from "../../../core/index.ts";
import { envReader } from "../../../load/index.ts";

/** The error `read` throws, which must be the coded EnvError. */
function refusal(read: () => unknown): EnvError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).code).toBe("env-invalid");
    return error as EnvError;
  }
  throw new Error("no refusal");
}

describe("envReader", () => {
  it("reads a string trimmed, takes a blank one as unset, and requires it unless there is a fallback", () => {
    const read = envReader({ A: "  value \n", BLANK: "   " });
    expect(read.string("A")).toBe("value");
    expect(read.string("BLANK", "fallback")).toBe("fallback");
    expect(read.optionalString("BLANK")).toBeUndefined();
    expect(read.optionalString("MISSING")).toBeUndefined();
    expect(refusal(() => read.string("MISSING")).message).toBe("MISSING is required");
  });

  it("reads a number within its bounds, bounds included", () => {
    const read = envReader({ N: " 2.5 ", LOW: "1", HIGH: "10" });
    expect(read.number("N", {})).toBe(2.5);
    expect(read.number("LOW", { min: 1, max: 10 })).toBe(1);
    expect(read.number("HIGH", { min: 1, max: 10 })).toBe(10);
    expect(read.number("MISSING", { fallback: 7 })).toBe(7);
    expect(refusal(() => read.number("HIGH", { min: 1, max: 9.5 })).message).toBe(
      "HIGH must be a number from 1 to 9.5, got '10'",
    );
    expect(refusal(() => read.number("MISSING", {})).message).toBe("MISSING is required");
  });

  it("refuses what is not a finite number", () => {
    const read = envReader({ WORD: "ten", INF: "Infinity", HEX: "0x10", NAN: "NaN" });
    expect(refusal(() => read.number("WORD", {})).message).toBe(
      "WORD must be a number from -Infinity to Infinity, got 'ten'",
    );
    expect(() => read.number("INF", {})).toThrow(EnvError);
    expect(() => read.number("NAN", {})).toThrow(EnvError);
    // Number() reads hex, and the reader takes what Number() takes.
    expect(read.number("HEX", {})).toBe(16);
  });

  it("reads an optional number only when set, still within bounds", () => {
    const read = envReader({ N: "0" });
    expect(read.optionalNumber("MISSING")).toBeUndefined();
    expect(read.optionalNumber("N", { min: 0 })).toBe(0);
    expect(() => read.optionalNumber("N", { min: 1 })).toThrow(
      "N must be a number from 1 to Infinity, got '0'",
    );
  });

  it("reads a whole number, refusing a fraction or one past safe integers", () => {
    const read = envReader({ I: "42", F: "1.5", BIG: "9007199254740993" });
    expect(read.integer("I", { min: 0 })).toBe(42);
    expect(refusal(() => read.integer("F", {})).message).toBe("F must be a whole number, got '1.5'");
    expect(() => read.integer("BIG", {})).toThrow("BIG must be a whole number");
  });

  it("reads one of the given choices, exactly", () => {
    const read = envReader({ MODE: "basic", ODD: "Basic" });
    expect(read.choice("MODE", ["post", "basic"])).toBe("basic");
    expect(read.choice("MISSING", ["post", "basic"], "post")).toBe("post");
    expect(refusal(() => read.choice("ODD", ["post", "basic"])).message).toBe(
      "ODD must be one of post, basic, got 'Basic'",
    );
    expect(refusal(() => read.choice("MISSING", ["post", "basic"])).message).toBe(
      "MISSING is required (one of post, basic)",
    );
  });

  it("parses JSON, and refuses bad JSON without echoing it: it may hold a secret", () => {
    const secret = "s3cret-in-json-5b1";
    const read = envReader({ OK: '{"a":[1,2]}', BAD: `{"client_secret":"${secret}"`, FALSY: "0" });
    expect(read.json("OK")).toEqual({ a: [1, 2] });
    expect(read.json("FALSY")).toBe(0);
    expect(read.json("MISSING", [])).toEqual([]);
    const error = refusal(() => read.json("BAD"));
    expect(error.message).toBe("BAD is not valid JSON");
    expect(error.message).not.toContain(secret);
    expect(refusal(() => read.json("MISSING")).message).toBe("MISSING is required");
  });
});
