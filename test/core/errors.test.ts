import { readFileSync } from "node:fs";
import type { HarnessError } from "../../core/index.ts";
import {
  BundleTooLargeError,
  CannotRunError,
  ConnectionError,
  ContractRunError,
  EnvError,
  PrerequisiteError,
  RedirectAnswerError,
  ResponseTooLargeError,
  RotationUnconfirmedError,
  ServerFailureError,
  TransportError,
  UndecidableError,
  UsageError,
} from "../../core/index.ts";
import { describe, expect, it } from "../support/fixtures.ts";

/** One of each error the harness throws, as its callers make it. */
const ONE_OF_EACH: readonly HarnessError[] = [
  new UsageError("unknown-option", "unknown option --x", "contract"),
  new CannotRunError("k6 exited 107"),
  new RotationUnconfirmedError("the old secret still works"),
  new ContractRunError("vitest could not start"),
  new BundleTooLargeError("bundle is 2 MiB"),
  new EnvError("EVENT_API_BASE_URL is missing"),
  new ConnectionError("the CA file is not PEM", "CA_FILE"),
  new ResponseTooLargeError(1024),
  new TransportError("connection refused", "ECONNREFUSED"),
  new ServerFailureError("500 on token request", "Endpoints §1"),
  new RedirectAnswerError("302 on token request", "Endpoints §1; Authentication rule 2"),
  new UndecidableError("answers came too late"),
  new PrerequisiteError("premise failed"),
];

/** The errors table of CONTRIBUTING.md, read as a user reads it: each class with the codes its row names. */
function documentedCodes(): Map<string, string[]> {
  const text = readFileSync(new URL("../../CONTRIBUTING.md", import.meta.url), "utf8");
  const rows = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    const [, codes, cls] = cells;
    if (codes === undefined || cls === undefined || !/^`[A-Za-z]+Error`$/.test(cls)) continue;
    rows.set(
      cls.slice(1, -1),
      [...codes.matchAll(/`([a-z-]+)`/g)].map((match) => match[1] as string),
    );
  }
  return rows;
}

describe("the harness's errors", () => {
  it("are each an Error and a HarnessError, named after their class", () => {
    for (const error of ONE_OF_EACH) {
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(error.constructor.name);
      expect(String(error)).toBe(`${error.name}: ${error.message}`);
    }
  });

  it("carry the code CONTRIBUTING.md documents for their class, no two classes the same", () => {
    const documented = documentedCodes();
    expect(documented.size).toBe(ONE_OF_EACH.length);
    for (const error of ONE_OF_EACH) expect(documented.get(error.name), error.name).toContain(error.code);
    const codes = ONE_OF_EACH.filter((error) => !(error instanceof UsageError)).map((error) => error.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("keep what their callers pass beside the message", () => {
    const usage = new UsageError("invalid-value", "--vus must be a whole number", "load");
    expect([usage.code, usage.message, usage.command]).toEqual([
      "invalid-value",
      "--vus must be a whole number",
      "load",
    ]);
    expect(new UsageError("missing-tool", "k6 not found").command).toBeUndefined();
    expect(new ConnectionError("expired", "CERT_HAS_EXPIRED").reason).toBe("CERT_HAS_EXPIRED");
    expect(new TransportError("timed out", "TIMEOUT").reason).toBe("TIMEOUT");
    expect(new ServerFailureError("500", "Endpoints §2; RFC 9110 §15.6").rule).toBe(
      "Endpoints §2; RFC 9110 §15.6",
    );
    expect(new RedirectAnswerError("307", "Endpoints §2; Authentication rule 2").rule).toBe(
      "Endpoints §2; Authentication rule 2",
    );
  });

  it("say a body's cap in the unit it was set in, unless given a message", () => {
    expect(new ResponseTooLargeError(1024 * 1024).message).toBe("response body exceeded 1 MiB");
    expect(new ResponseTooLargeError(64 * 1024).message).toBe("response body exceeded 64 KiB");
    expect(new ResponseTooLargeError(1000).message).toBe("response body exceeded 1000 bytes");
    const shaped = new ResponseTooLargeError(4096, "JSON nested deeper than 64 levels");
    expect([shaped.limitBytes, shaped.message]).toEqual([4096, "JSON nested deeper than 64 levels"]);
  });
});
