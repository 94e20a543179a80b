import { execFile } from "node:child_process";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll } from "vitest";
import { k6InputArgs, writeK6Inputs } from "../../../cli/load/index.ts";
import { BundleTooLargeError } from "../../../core/index.ts";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import {
  bundleLoadScenarios,
  checkBundleSizes,
  MAX_BUNDLE_BYTES,
} from "../../../k6-tooling/bundle/bundle-load.ts";
import { buildEventTemplates } from "../../../k6-tooling/run/build-event-templates.ts";
import type { ScenarioName } from "../../../load/index.ts";
import {
  CAPACITY_WARM_UP_SCENARIO,
  EVENT_DURATION,
  EXPIRY,
  judgedMetric,
  LOAD_ENV,
  planScenario,
  readRunConfig,
  SCENARIO_NAMES,
  SCENARIOS,
  WARM_UP_SCENARIO,
} from "../../../load/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const run = promisify(execFile);

/** Every scenario bundled once, into the directory the file's tests share; and the event data k6 inspects them with. */
const it = base
  .extend("bundles", { scope: "file" }, async ({ fileDir }) => bundleLoadScenarios(SCENARIO_NAMES, fileDir))
  .extend("dataFile", { scope: "file" }, async ({ fileDir }) => {
    const dataFile = path.join(fileDir, "event-templates.json");
    await writeFile(dataFile, JSON.stringify(buildEventTemplates({ runId: "inspect", seed: 1, count: 4 })));
    return dataFile;
  });

describe("bundle-load", () => {
  it("bundles every scenario into one small file with a linked source map", async ({
    fileDir: outDir,
    bundles,
  }) => {
    expect(bundles.map((b) => b.scenario)).toEqual([...SCENARIO_NAMES]);
    for (const bundle of bundles) {
      expect(bundle.file).toBe(path.join(outDir, `${bundle.scenario}.js`));
      expect(bundle.bytes).toBe((await stat(bundle.file)).size);
      expect(bundle.bytes).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
      expect(await readFile(bundle.file, "utf8")).toContain(`//# sourceMappingURL=${bundle.scenario}.js.map`);
      expect((await stat(`${bundle.file}.map`)).size).toBeGreaterThan(0);
    }
  });

  it("imports nothing but k6's own modules: no faker, no Node APIs", async ({ bundles }) => {
    for (const bundle of bundles) {
      const code = await readFile(bundle.file, "utf8");
      const imports = [...code.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
      expect(imports.length).toBeGreaterThan(0);
      for (const specifier of imports) expect(specifier).toMatch(/^k6(\/[a-z-]+)?$/);
      expect(code).not.toMatch(/faker|node:|process\.env/);
      // Three requires, each behind its condition (load/lib/k6-vu.ts): the harness's own k6 extension when the harness
      // set EH_BODY_CAP, k6/execution only where that extension is missing, k6/encoding only for HTTP Basic clients.
      expect([...code.matchAll(/require\(([^)]*)\)/g)].map((m) => m[1])).toEqual([
        '"k6/x/harness"',
        '"k6/execution"',
        '"k6/encoding"',
      ]);
      expect(code).toContain("export {");
    }
  });

  it("leaves out the Node side's tables and esbuild's require shim, which every VU would otherwise build and hold", async ({
    bundles,
  }) => {
    for (const bundle of bundles) {
      const code = await readFile(bundle.file, "utf8");
      expect(code).not.toMatch(/\bvar (?:LOAD_ENV|RENAMED_METRICS|RETIRED_METRICS|EXPIRY|TOKEN_OUTCOME)\b/);
      expect(code).not.toContain(LOAD_ENV.tokenUrl);
      expect(code).not.toMatch(/__require|new Proxy/);
    }
  });

  it("fails the build above the size limit, naming the bundles", ({ bundles }) => {
    const big = [{ scenario: "soak" as const, file: "soak.js", bytes: MAX_BUNDLE_BYTES + 1 }];
    expect(() => checkBundleSizes(big)).toThrow(BundleTooLargeError);
    expect(() => checkBundleSizes(big)).toThrow("bundle(s) over 100.0 KB: soak 100.0 KB");
    expect(() => checkBundleSizes(bundles)).not.toThrow();
  });

  it("typechecks the k6 scripts against @types/k6", async () => {
    const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
    await expect(
      run(process.execPath, [tsc, "-p", path.join(ROOT, "load", "tsconfig.json")]),
    ).resolves.toBeDefined();
  }, 60_000);
});

describe("the bundles in k6", () => {
  let k6: K6Binary;

  beforeAll(async () => {
    k6 = await ensureK6({ env: process.env, stderr: process.stderr });
  }, 600_000);

  /**
   * `k6 inspect` compiles the bundle in Sobek and resolves its options from the `--config` file the harness writes:
   * proof that k6 accepts every scenario's executor and thresholds.
   */
  async function inspect(
    outDir: string,
    dataFile: string,
    scenario: ScenarioName,
  ): Promise<Record<string, unknown>> {
    const config = readRunConfig(
      {
        [LOAD_ENV.tokenUrl]: "http://127.0.0.1:9/auth/oauth/token",
        [LOAD_ENV.baseUrl]: "http://127.0.0.1:9/api",
        [LOAD_ENV.credentials]: JSON.stringify([{ client_id: "inspect", client_secret: "inspect-secret" }]),
        [LOAD_ENV.runId]: "inspect",
        [LOAD_ENV.dataFile]: dataFile,
        [LOAD_ENV.expiresInSeconds]: "2",
      },
      scenario,
    );
    const inputDir = await mkdtemp(path.join(outDir, `${scenario}-`));
    const inputs = await writeK6Inputs(config, planScenario(config), inputDir);
    const env = { PATH: process.env.PATH ?? "", K6_NO_USAGE_REPORT: "true", ...inputs.env };
    const { stdout } = await run(
      k6.path,
      [
        "inspect",
        "--include-system-env-vars",
        "--execution-requirements",
        ...k6InputArgs(inputs),
        path.join(outDir, `${scenario}.js`),
      ],
      { env },
    );
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it.for(SCENARIO_NAMES)(
    "k6 accepts %s's executor and thresholds",
    { timeout: 30_000 },
    async (scenario, { fileDir: outDir, dataFile, bundles: _bundled }) => {
      const options = (await inspect(outDir, dataFile, scenario)) as {
        scenarios: Record<string, { executor: string; maxVUs?: number }>;
        thresholds: Record<string, string[]>;
        maxVUs: number;
      };
      // The token warm-up of the constant rates; a capacity step's own warm-up at its rate, which is not judged.
      const warmUp =
        scenario === "sustained" || scenario === "soak"
          ? WARM_UP_SCENARIO
          : scenario === "capacity"
            ? CAPACITY_WARM_UP_SCENARIO
            : undefined;
      expect(Object.keys(options.scenarios).sort()).toEqual(
        (warmUp === undefined ? [scenario] : [scenario, warmUp]).sort(),
      );
      const expected =
        SCENARIOS[scenario].model === "open" ? /arrival-rate$/ : /^(per-vu-iterations|constant-vus)$/;
      expect(options.scenarios[scenario]?.executor).toMatch(expected);
      if (warmUp) {
        // The warm-up ends before the rate starts, so k6 reuses its VUs: no more VUs than the scenario's own.
        expect(options.maxVUs).toBe(options.scenarios[scenario]?.maxVUs);
      }
      expect(options.thresholds[EXPIRY.unexpected]).toEqual(["count==0"]);
      // A capacity step is judged on its judged stretch's sub-metric (k6's own tag on its samples).
      const latency = scenario === "capacity" ? judgedMetric(EVENT_DURATION) : EVENT_DURATION;
      expect(options.thresholds[latency]).toEqual(["p(95)<500"]);
      expect(options.maxVUs).toBeGreaterThanOrEqual(SCENARIOS[scenario].defaults.vus);
    },
  );
});
