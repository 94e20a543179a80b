import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EventInput, InputClass } from "../../generators/index.ts";
import { calendarClasses } from "../../generators/index.ts";

const dateOf = (input: EventInput) =>
  (JSON.parse(input.body) as { transaction: { date: string } }).transaction.date;

/** Built once: the classes are immutable, and building them (long values included) is the slow part. */
const CLASSES = calendarClasses();

function byName(name: string, classes = CLASSES): InputClass<EventInput> {
  const found = classes.find((c) => c.name === name);
  if (found === undefined) throw new Error(`no class ${name}`);
  return found;
}

/** Whether the engine's own Date reads the text as exactly that instant: it exists, and is written in the profile. */
const roundTrips = (date: string) => {
  const time = Date.parse(date);
  return !Number.isNaN(time) && new Date(time).toISOString() === date;
};

const all = (cls: InputClass<EventInput>, numRuns = 40) =>
  [...cls.cover, ...fc.sample(cls.arbitrary, { seed: 9, numRuns })].map(dateOf);

describe("calendarClasses", () => {
  it("holds the calendar's classes of transaction.date with their expectations", () => {
    expect(CLASSES.map((c) => [c.field, c.name, c.expect])).toEqual([
      ["transaction.date", "leap-days", "accepted"],
      ["transaction.date", "month-ends", "accepted"],
      ["transaction.date", "day-edges", "accepted"],
      ["transaction.date", "year-range", "accepted"],
      ["transaction.date", "not-a-leap-year", "refused"],
      ["transaction.date", "past-month-end", "refused"],
      ["transaction.date", "past-time-range", "refused"],
      ["transaction.date", "zero-and-past-fields", "refused"],
      ["transaction.date", "before-1970", "answered"],
      ["transaction.date", "leap-second-and-24", "answered"],
    ]);
  });

  it("covers the last day of every month of a common year", () => {
    expect(byName("month-ends").cover.map((input) => dateOf(input).slice(0, 10))).toEqual([
      "2025-01-31",
      "2025-02-28",
      "2025-03-31",
      "2025-04-30",
      "2025-05-31",
      "2025-06-30",
      "2025-07-31",
      "2025-08-31",
      "2025-09-30",
      "2025-10-31",
      "2025-11-30",
      "2025-12-31",
    ]);
  });

  it("covers the day after the last of every month of a leap year: February 30, not 29", () => {
    expect(byName("past-month-end").cover.map((input) => dateOf(input).slice(0, 10))).toEqual([
      "2024-01-32",
      "2024-02-30",
      "2024-03-32",
      "2024-04-31",
      "2024-05-32",
      "2024-06-31",
      "2024-07-32",
      "2024-08-32",
      "2024-09-31",
      "2024-10-32",
      "2024-11-31",
      "2024-12-32",
    ]);
  });

  it.each(["leap-days", "month-ends", "day-edges", "year-range"])(
    "%s: every date, covered or drawn, is an instant Date writes back the same way",
    (name) => {
      for (const date of all(byName(name))) {
        expect(roundTrips(date), date).toBe(true);
        expect(date, date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Date.parse(date), date).toBeGreaterThanOrEqual(0);
      }
    },
  );

  it.each(["not-a-leap-year", "past-month-end", "past-time-range", "zero-and-past-fields"])(
    "%s: no date, covered or drawn, is one Date writes back the same way",
    (name) => {
      for (const date of all(byName(name))) expect(roundTrips(date), date).toBe(false);
    },
  );

  it("draws February 29 only of years with no such day, by Date.UTC's own calendar", () => {
    for (const date of all(byName("not-a-leap-year"))) {
      const year = Number(date.slice(0, 4));
      expect(date.slice(4, 10)).toBe("-02-29");
      expect(new Date(Date.UTC(year, 1, 29)).getUTCMonth(), date).toBe(2);
    }
  });

  it("draws leap days only of leap years from 1970 to 9999", () => {
    for (const date of all(byName("leap-days"))) {
      const year = Number(date.slice(0, 4));
      expect(year).toBeGreaterThanOrEqual(1970);
      expect(year).toBeLessThanOrEqual(9999);
      expect(date.slice(4, 10)).toBe("-02-29");
    }
  });

  it("answers years before 1970 in four digits, year 0000 included, and the leap second and 24:00", () => {
    const before = byName("before-1970").cover.map(dateOf);
    expect(before).toContain("0000-01-01T00:00:00.000Z");
    expect(before).toContain("0001-01-01T00:00:00.000Z");
    for (const date of all(byName("before-1970"))) expect(Number(date.slice(0, 4))).toBeLessThan(1970);
    expect(byName("leap-second-and-24").cover.map(dateOf)).toEqual([
      "2016-12-31T23:59:60.000Z",
      "2026-01-02T24:00:00.000Z",
      "2026-06-30T23:59:60.999Z",
    ]);
  });

  it("changes only transaction.date, and describes each input by its date and class", () => {
    const [input] = byName("year-range", calendarClasses({ channels: ["chl-mine"] })).cover;
    const body = JSON.parse(input?.body ?? "") as Record<string, Record<string, string>>;
    expect(body.channel).toEqual({ id: "chl-mine" });
    expect(body.transaction?.date).toBe("9999-12-31T23:59:59.999Z");
    expect(input?.what).toBe(
      `transaction.date "9999-12-31T23:59:59.999Z" (${byName("year-range").description})`,
    );
  });
});
