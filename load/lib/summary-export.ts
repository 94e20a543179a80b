import { settings } from "./k6-vu.ts";

/**
 * Writes k6's end-of-test data as it is; the harness renders summary.md, junit.xml and the verdict from it in Node,
 * so no VU carries the report code.
 */
export const handleSummary = (data: object): Record<string, string> => ({
  [settings.summaryFile]: JSON.stringify(data),
});
