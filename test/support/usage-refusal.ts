import { expect } from "vitest";
import { UsageError } from "../../core/index.ts";

/** The UsageError `attempt` is refused with: the test fails when it settles any other way. */
export async function usageRefusal(attempt: Promise<unknown>): Promise<UsageError> {
  const error: unknown = await attempt.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return error as UsageError;
}
