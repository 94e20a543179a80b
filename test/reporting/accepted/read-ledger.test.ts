import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { parseLedger, readLedger } from "../../../reporting/accepted/index.ts";
import { it } from "../../support/fixtures.ts";

const TODAY = "2026-11-25";
const parse = (value: unknown) => parseLedger(JSON.stringify(value), "accepted.json", TODAY);
const entry = (fields: Record<string, unknown>) => ({ accepted: [fields] });

describe("parseLedger", () => {
  it("reads entries with their reason, ticket and last day", () => {
    const reading = parse({
      $schema: "./ledger.schema.json",
      accepted: [
        { id: "lifetime.sliding", reason: "fixed lifetime", ticket: "API-1", expires: "2027-01-31" },
        { id: "token.no-store", reason: "a proxy strips the header" },
        { id: "load.sliding-expiry", reason: "fixed lifetime", expires: "2027-01-31" },
      ],
    });
    expect(reading).toEqual({
      ok: true,
      ledger: {
        file: "accepted.json",
        today: TODAY,
        entries: [
          { id: "lifetime.sliding", reason: "fixed lifetime", ticket: "API-1", expires: "2027-01-31" },
          { id: "token.no-store", reason: "a proxy strips the header" },
          { id: "load.sliding-expiry", reason: "fixed lifetime", expires: "2027-01-31" },
        ],
      },
    });
  });

  it.each([
    ["not JSON", "{", /accepted\.json is not JSON/],
    [
      "no list",
      {},
      /^accepted\.json: the ledger has no "accepted" list: write \{ "accepted": \[\] \} for none$/,
    ],
    [
      "an unknown key",
      entry({ id: "token.issued", reason: "r", expires: "2027-01-01", until: "x" }),
      /entry 1 \(token\.issued\): unknown key 'until'/,
    ],
    [
      "an empty reason",
      entry({ id: "token.issued", reason: " ", expires: "2027-01-01" }),
      /entry 1 \(token\.issued\): reason: must say why/,
    ],
    ["no reason", entry({ id: "token.issued", expires: "2027-01-01" }), /entry 1 \(token\.issued\): reason:/],
    [
      "an impossible date",
      entry({ id: "token.issued", reason: "r", expires: "2027-02-30" }),
      /expires: must be a calendar date/,
    ],
    [
      "a date with a time",
      entry({ id: "token.issued", reason: "r", expires: "2027-02-01T00:00:00Z" }),
      /expires: must be a calendar date/,
    ],
    [
      "a MUST check without expiry",
      entry({ id: "lifetime.sliding", reason: "r" }),
      /entry 1 \(lifetime\.sliding\): expires .* is required for MUST checks/,
    ],
    [
      "a rotation check without expiry",
      entry({ id: "rotation.old-tokens", reason: "r" }),
      /expires .* is required/,
    ],
    [
      "a load gate without expiry",
      entry({ id: "load.events_failed", reason: "r" }),
      /expires .* is required for MUST checks, load gates and baseline figures/,
    ],
    [
      "an unknown id",
      entry({ id: "lifetime.slidng", reason: "r", expires: "2027-01-01" }),
      /entry 1 \(lifetime\.slidng\): names no check, load gate or baseline figure/,
    ],
  ])("refuses %s, naming the entry", (_what, value, message) => {
    const reading = typeof value === "string" ? parseLedger(value, "accepted.json", TODAY) : parse(value);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.problem.message).toMatch(message);
  });

  it.each([
    [
      "an array of entries",
      [{ id: "lifetime.sliding", reason: "r", expires: "2027-01-01" }],
      'accepted.json: a ledger is an object, { "accepted": [ … ] }, not a list: put the entries in its "accepted" list',
    ],
    [
      "a string",
      "lifetime.sliding",
      'accepted.json: a ledger is an object, { "accepted": [ … ] }, not a string',
    ],
    ["null", null, 'accepted.json: a ledger is an object, { "accepted": [ … ] }, not null'],
    [
      "an object where the list goes",
      { accepted: { id: "lifetime.sliding", reason: "r" } },
      'accepted.json: "accepted" is a list of entries, [ { "id": …, "reason": … } ], not an object',
    ],
    [
      "an id where an entry goes",
      { accepted: ["lifetime.sliding"] },
      'accepted.json: entry 1: an entry is an object, { "id": …, "reason": …, "ticket": …, "expires": … }, not a string',
    ],
  ])("says in one sentence what shape a ledger has, given %s", (_what, value, message) => {
    const reading = parse(value);
    expect(reading.ok || reading.problem.message).toBe(message);
  });

  it("refuses an id accepted twice", () => {
    const twice = { id: "token.issued", reason: "r", expires: "2027-01-01" };
    const reading = parse({ accepted: [twice, twice] });
    expect(reading.ok || reading.problem.message).toBe(
      "accepted.json: entry 2 (token.issued): the id is accepted twice for the same run: bind each entry to a different environment or target",
    );
  });

  it("gives the unknown id apart, for a suggestion", () => {
    const reading = parse(entry({ id: "bearer.alg-nonе", reason: "r", expires: "2027-01-01" }));
    expect(reading.ok || reading.problem.unknownId).toBe("bearer.alg-nonе");
  });
});

describe("readLedger", () => {
  it("says why a file cannot be read", async ({ tmpDir: dir }) => {
    const missing = await readLedger(join(dir, "nope.json"), TODAY);
    expect(missing.ok || missing.problem.message).toMatch(
      /cannot read the ledger .*nope\.json: no such file/,
    );
    const directory = await readLedger(dir, TODAY);
    expect(directory.ok || directory.problem.message).toMatch(/it is a directory/);
  });

  it("reads a file", async ({ tmpDir: dir }) => {
    const file = join(dir, "ok.json");
    await writeFile(file, JSON.stringify(entry({ id: "token.issued", reason: "r", expires: "2027-01-01" })));
    expect((await readLedger(file, TODAY)).ok).toBe(true);
  });
});
