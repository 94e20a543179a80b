import fc from "fast-check";
import type { EventInput } from "./event-input.ts";
import { fieldClass, input, withValue } from "./event-input.ts";
import type { InputClass, InputExpectation } from "./input-class.ts";
import type { WideEventOptions } from "./wide-event.ts";

/*
 * transaction.date's calendar, in the spec's profile (ISO 8601 with milliseconds and a UTC designator,
 * YYYY-MM-DDTHH:MM:SS.mmmZ): the Gregorian calendar's edges, each day and time that exists accepted, each that
 * does not refused; what the profile's words leave open (years before 1970, a leap second, 24:00) answered.
 */

const pad = (value: number, width = 2) => String(value).padStart(width, "0");
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
const daysIn = (year: number, month: number) =>
  [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 31;
const at = (year: number, month: number, day: number, time = "12:00:00.000") =>
  `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}Z`;

const YEARS = fc.integer({ min: 1970, max: 9999 });
const MONTHS = fc.integer({ min: 1, max: 12 });
const TIME = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([h, m, s, ms]) => `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms, 3)}`);
const LEAP_YEARS = YEARS.filter(isLeap);
/** Years divisible by 4 that are not leap years: the centuries not divisible by 400. */
const CENTURY_COMMON_YEARS = fc
  .integer({ min: 20, max: 99 })
  .map((century) => century * 100)
  .filter((year) => !isLeap(year));

function dateClass(
  options: WideEventOptions,
  name: string,
  expect: InputExpectation,
  description: string,
  cover: readonly string[],
  values: fc.Arbitrary<string>,
): InputClass<EventInput> {
  return fieldClass(options, {
    field: "transaction.date",
    name,
    description,
    expect,
    cover,
    values,
    make: (event, date) =>
      input(
        `transaction.date ${JSON.stringify(date)} (${description})`,
        withValue(event, ["transaction", "date"], date),
      ),
  });
}

/** The calendar classes of transaction.date. */
export function calendarClasses(options: WideEventOptions = {}): InputClass<EventInput>[] {
  const months = Array.from({ length: 12 }, (_, index) => index + 1);
  return [
    dateClass(
      options,
      "leap-days",
      "accepted",
      "February 29 of leap years, centuries divisible by 400 among them",
      [at(2000, 2, 29), at(2024, 2, 29, "23:59:59.999"), at(2400, 2, 29, "00:00:00.000"), at(9996, 2, 29)],
      fc.tuple(LEAP_YEARS, TIME).map(([year, time]) => at(year, 2, 29, time)),
    ),
    dateClass(
      options,
      "month-ends",
      "accepted",
      "the last day of every month, February 28 of common years",
      months.map((month) => at(2025, month, daysIn(2025, month), "23:59:59.999")),
      fc.tuple(YEARS, MONTHS, TIME).map(([year, month, time]) => at(year, month, daysIn(year, month), time)),
    ),
    dateClass(
      options,
      "day-edges",
      "accepted",
      "the first and last millisecond of a day, and noon",
      [at(2026, 1, 2, "23:59:59.999"), at(2026, 1, 2, "00:00:00.000"), at(2026, 12, 31, "23:59:59.999")],
      fc
        .tuple(
          YEARS,
          MONTHS,
          fc.integer({ min: 1, max: 28 }),
          fc.constantFrom("00:00:00.000", "23:59:59.999", "12:00:00.000", "00:00:00.001"),
        )
        .map(([year, month, day, time]) => at(year, month, day, time)),
    ),
    dateClass(
      options,
      "year-range",
      "accepted",
      "the ends of the four-digit years from 1970 (the Unix epoch, 2^31 seconds, 9999-12-31)",
      [
        at(9999, 12, 31, "23:59:59.999"),
        at(1970, 1, 1, "00:00:00.000"),
        at(2038, 1, 19, "03:14:07.999"),
        at(2038, 1, 19, "03:14:08.000"),
        at(2100, 1, 1, "00:00:00.000"),
      ],
      fc
        .integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) })
        .map((ms) => new Date(ms).toISOString()),
    ),
    dateClass(
      options,
      "not-a-leap-year",
      "refused",
      "February 29 of a year that has none: centuries not divisible by 400, and common years",
      [at(2100, 2, 29), at(2023, 2, 29), at(2200, 2, 29), at(2025, 2, 29, "23:59:59.999")],
      fc
        .tuple(
          fc.oneof(
            CENTURY_COMMON_YEARS,
            YEARS.filter((year) => !isLeap(year)),
          ),
          TIME,
        )
        .map(([year, time]) => at(year, 2, 29, time)),
    ),
    dateClass(
      options,
      "past-month-end",
      "refused",
      "the day after the last of every month (February 30, April 31, January 32 …)",
      months.map((month) => at(2024, month, daysIn(2024, month) + 1)),
      fc
        .tuple(YEARS, MONTHS, TIME)
        .map(([year, month, time]) => at(year, month, daysIn(year, month) + 1, time)),
    ),
    dateClass(
      options,
      "past-time-range",
      "refused",
      "a time past the day: 24:00:00.001, minute 60, second 61, hour 25",
      [
        at(2026, 1, 2, "24:00:00.001"),
        at(2026, 1, 2, "23:60:00.000"),
        at(2026, 1, 2, "23:59:61.000"),
        at(2026, 1, 2, "25:00:00.000"),
      ],
      fc
        .tuple(YEARS, fc.constantFrom("24:30:00.000", "12:60:00.000", "12:00:61.000", "99:00:00.000"))
        .map(([year, time]) => at(year, 6, 15, time)),
    ),
    dateClass(
      options,
      "zero-and-past-fields",
      "refused",
      "month 00 or 13, day 00",
      ["2026-00-10T12:00:00.000Z", "2026-13-10T12:00:00.000Z", "2026-01-00T12:00:00.000Z"],
      fc
        .tuple(YEARS, fc.constantFrom("00-10", "13-10", "01-00", "12-00"))
        .map(([year, monthDay]) => `${pad(year, 4)}-${monthDay}T12:00:00.000Z`),
    ),
    dateClass(
      options,
      "before-1970",
      "answered",
      "years before 1970, the Gregorian reform and year 0000 (stores differ; the spec is silent)",
      [
        at(1969, 12, 31, "23:59:59.999"),
        at(1582, 10, 10),
        at(1, 1, 1, "00:00:00.000"),
        at(0, 1, 1, "00:00:00.000"),
        at(1900, 2, 28),
      ],
      fc.integer({ min: 0, max: 1969 }).map((year) => at(year, 1, 1)),
    ),
    dateClass(
      options,
      "leap-second-and-24",
      "answered",
      "a leap second (23:59:60) and 24:00:00.000, which ISO 8601 has and RFC 3339 partly",
      [at(2016, 12, 31, "23:59:60.000"), at(2026, 1, 2, "24:00:00.000"), at(2026, 6, 30, "23:59:60.999")],
      YEARS.map((year) => at(year, 12, 31, "23:59:60.000")),
    ),
  ];
}
