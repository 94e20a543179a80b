import { describe, expect, it } from "vitest";
import { k6GoRuntime } from "../../../k6-tooling/run/k6-go-runtime.ts";

describe("k6GoRuntime", () => {
  it("passes the user's GOGC and GOMEMLIMIT on as they are", () => {
    expect(k6GoRuntime({ GOGC: "200", GOMEMLIMIT: "1500MiB" })).toEqual({
      GOGC: "200",
      GOMEMLIMIT: "1500MiB",
    });
    expect(k6GoRuntime({ GOGC: "off" })).toEqual({ GOGC: "off" });
  });

  it("leaves Go's defaults alone when they are unset or empty, and passes nothing else of Go's", () => {
    expect(k6GoRuntime({})).toEqual({});
    expect(k6GoRuntime({ GOGC: "", GOMAXPROCS: "1", GODEBUG: "gctrace=1", GOFLAGS: "-x" })).toEqual({});
  });
});
