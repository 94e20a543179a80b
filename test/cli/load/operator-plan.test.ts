import { writeFile } from "node:fs/promises";
import path from "node:path";
import { readOperatorPlan } from "../../../cli/load/operator-plan.ts";
import { UsageError } from "../../../core/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { sustainedReportContext } from "../../support/run-config-fixture.ts";

const FORMAT = "event-harness.k6-operator-plan.v1";

async function refusal(file: string): Promise<UsageError> {
  const error: unknown = await readOperatorPlan(file).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  expect((error as UsageError).code).toBe("invalid-value");
  return error as UsageError;
}

describe("readOperatorPlan", () => {
  it("reads a plan as load --k6-operator writes it", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plan.json");
    await writeFile(
      file,
      JSON.stringify({ format: FORMAT, context: sustainedReportContext, parallelism: 3 }),
    );
    const plan = await readOperatorPlan(file);
    expect(plan.parallelism).toBe(3);
    expect(plan.context).toEqual(sustainedReportContext);
  });

  it("keeps the optional fields a plan holds, and only those", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plan.json");
    const context = {
      ...sustainedReportContext,
      arrivals: { peakRate: 40, maxVus: 8 },
      overrides: ["events_failed rate<0.05"],
    };
    await writeFile(file, JSON.stringify({ format: FORMAT, context, parallelism: 1 }));
    const plan = await readOperatorPlan(file);
    expect(plan.context.arrivals).toEqual({ peakRate: 40, maxVus: 8 });
    expect(plan.context.overrides).toEqual(["events_failed rate<0.05"]);
    expect(Object.keys(plan.context).sort()).toEqual(Object.keys(context).sort());
  });

  it("refuses a file of another format, or none", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plan.json");
    await writeFile(
      file,
      JSON.stringify({ format: "other.v2", context: sustainedReportContext, parallelism: 1 }),
    );
    expect((await refusal(file)).message).toBe(`--plan ${file} is not a ${FORMAT} file`);
    await writeFile(file, "null");
    expect((await refusal(file)).message).toBe(`--plan ${file} is not a ${FORMAT} file`);
  });

  it("names each field that breaks the schema, never its value", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plan.json");
    await writeFile(
      file,
      JSON.stringify({
        format: FORMAT,
        context: { ...sustainedReportContext, runId: "r".repeat(201), scenario: "<b>ddos</b>" },
        parallelism: 0,
      }),
    );
    const error = await refusal(file);
    expect(error.message).toContain("context.runId: too_big");
    expect(error.message).toContain("context.scenario: invalid_value");
    expect(error.message).toContain("parallelism: too_small");
    expect(error.message).not.toContain("ddos");
    expect(error.message).not.toContain("rrrr");
  });

  it("refuses a file it cannot read, naming the file", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "absent.json");
    expect((await refusal(file)).message).toMatch(new RegExp(`^--plan ${file}: `));
  });

  it("refuses what is not JSON without echoing the file's text", async ({ tmpDir }) => {
    const file = path.join(tmpDir, "plan.json");
    await writeFile(file, '{"format": "x", "token": eyJhbGciOiJIUzI1NiJ9.leaked}');
    const error = await refusal(file);
    expect(error.message).toContain(`--plan ${file}`);
    expect(error.message).not.toContain("eyJ");
    expect(error.message).not.toContain("token");
  });
});
