import { describe, expect, it } from "vitest";
import { checkThreshold, parseExpression } from "../../../load/index.ts";

describe("checkThreshold", () => {
  const values = { count: 3, rate: 0.02, "p(95)": 480, avg: 10 };

  it("applies every operator k6 accepts", () => {
    expect(checkThreshold("count==3", values)).toBe(true);
    expect(checkThreshold("count===3", values)).toBe(true);
    expect(checkThreshold("count!=3", values)).toBe(false);
    expect(checkThreshold("count>=3", values)).toBe(true);
    expect(checkThreshold("count>3", values)).toBe(false);
    expect(checkThreshold("rate<0.01", values)).toBe(false);
    expect(checkThreshold("p(95) < 500", values)).toBe(true);
    expect(checkThreshold("avg<=10", values)).toBe(true);
    expect(checkThreshold("count>-1", values)).toBe(true);
  });

  it("is undefined for an aggregate the metric lacks or an expression k6 would refuse", () => {
    expect(checkThreshold("p(99)<1", values)).toBeUndefined();
    expect(checkThreshold("count<>1", values)).toBeUndefined();
    expect(parseExpression("p(99.9)<=2.5")).toEqual({ stat: "p(99.9)", operator: "<=", limit: 2.5 });
  });
});
