import { describe, expect, it } from "vitest";
import { k6CsvTagReader } from "../../../k6-tooling/csv/k6-csv-tags.ts";

// The header k6 writes under the harness's systemTags (load/lib/load-options.ts).
const HEADER = [
  "metric_name",
  "timestamp",
  "metric_value",
  "error_code",
  "expected_response",
  "method",
  "name",
  "scenario",
  "status",
  "extra_tags",
  "metadata",
];
const sample = (status: string, extra: string) =>
  ["events_rejected", "1795458402226", "1.000000", "", "", "", "", "default", status, extra, ""] as const;

describe("k6CsvTagReader", () => {
  const tagOf = k6CsvTagReader(HEADER);

  it("reads a tag k6 has a column for from that column, any other tag from extra_tags", () => {
    const record = sample("503", "reason=rejected&outcome=failed");
    expect(tagOf(record, "status")).toBe("503");
    expect(tagOf(record, "scenario")).toBe("default");
    expect(tagOf(record, "reason")).toBe("rejected");
    expect(tagOf(record, "outcome")).toBe("failed");
    expect(tagOf(record, "kind")).toBeUndefined();
    expect(tagOf(record, "name")).toBeUndefined();
  });

  it("takes extra_tags as k6 writes them, unescaped, and never reads a column that holds no tag", () => {
    const record = sample("", "note=a+b%20c&endpoint=events");
    expect(tagOf(record, "note")).toBe("a+b%20c");
    expect(tagOf(record, "endpoint")).toBe("events");
    expect(tagOf(record, "status")).toBeUndefined();
    expect(tagOf(record, "timestamp")).toBeUndefined();
    expect(tagOf(record, "metric_value")).toBeUndefined();
  });

  it("finds tags in extra_tags when the header has no column for them", () => {
    const tagOfBare = k6CsvTagReader(["metric_name", "timestamp", "metric_value", "extra_tags"]);
    expect(tagOfBare(["events_rejected", "1", "1", "status=401"], "status")).toBe("401");
  });
});
