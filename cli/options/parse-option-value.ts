import { UsageError } from "../../core/index.ts";
import { didYouMean } from "../did-you-mean.ts";

/** Reads a whole number option within bounds, or throws a UsageError naming the option. */
export function parseInteger(
  name: string,
  raw: string | undefined,
  {
    min = Number.MIN_SAFE_INTEGER,
    max = Number.MAX_SAFE_INTEGER,
    fallback,
  }: { min?: number; max?: number; fallback: number },
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.trim());
  if (raw.trim() === "" || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(
      "invalid-value",
      `--${name} takes a whole number from ${min} to ${max}, got '${raw}'`,
    );
  }
  return value;
}

/** Reads a number option (fractions allowed) within bounds, or throws a UsageError naming the option. */
export function parseNumber(
  name: string,
  raw: string | undefined,
  { min = -Infinity, max = Infinity, fallback }: { min?: number; max?: number; fallback: number },
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError("invalid-value", `--${name} takes a number from ${min} to ${max}, got '${raw}'`);
  }
  return value;
}

/** Reads an option whose value must be one of a fixed list. */
export function parseChoice<const T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
  fallback: T,
): T {
  if (raw === undefined) return fallback;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(
    "invalid-value",
    `--${name} takes one of ${choices.join(", ")}, got '${raw}'${didYouMean(raw, choices)}`,
  );
}
