import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { beforeAll } from "vitest";
import { progressFigures } from "../../../cli/load/live-progress.ts";
import { ensureK6 } from "../../../k6-tooling/binary/k6-binary.ts";
import { EVENTS_ACCEPTED } from "../../../load/index.ts";
import type { SummaryData } from "../../../reporting/load/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import type { RedirectTarget, RedirectTargetOptions } from "../../support/redirect-server.ts";
import { LOCATION_PATH_MARKER, startRedirectTarget } from "../../support/redirect-server.ts";
import { runCli } from "../../support/run-cli.ts";

const SECRET = "redirect-test-secret-7d41c2b9";
const ADMIN_TOKEN = "redirect-test-admin-token-93be55";
const CLIENT_ID = "redirect-client";
/** A child is killed at this bound, so a hang fails the test instead of CI. */
const LIMIT_MS = 120_000;

beforeAll(async () => {
  await ensureK6({ env: process.env, stderr: process.stderr });
}, 600_000);

function targetArgs(url: string): string[] {
  return [
    "--auth-url",
    `${url}/auth`,
    "--base-url",
    `${url}/api`,
    "--client-id",
    CLIENT_ID,
    "--timeout",
    "3",
  ];
}

/** Every file under `dir` (one level of folders), as text. */
async function filesUnder(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = join(dir, name);
    if ((await stat(file)).isDirectory()) texts.push(...(await filesUnder(file)));
    else if (!name.endsWith(".js") && !name.endsWith(".gz")) texts.push(await readFile(file, "utf8"));
  }
  return texts;
}

async function against(
  reports: string,
  options: RedirectTargetOptions,
  args: readonly string[],
  name: string,
) {
  const target = await startRedirectTarget(options);
  try {
    const dir = join(reports, name);
    const run = await runCli(
      [...args, ...targetArgs(target.url), "--report-dir", dir],
      {
        EVENT_API_CLIENT_SECRET: SECRET,
        EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN,
        ...(process.env.K6_BIN ? { K6_BIN: process.env.K6_BIN } : {}),
      },
      LIMIT_MS,
    );
    const everything = [run.stdout, run.stderr, ...(await filesUnder(dir))].join("\n");
    return { run, target, everything };
  } finally {
    await target.close();
  }
}

/** The k6 summary the run wrote somewhere under `dir`. */
async function summaryUnder(dir: string): Promise<SummaryData> {
  const found = (await readdir(dir, { recursive: true })).find((name) => basename(name) === "summary.json");
  if (found === undefined) throw new Error(`no summary.json under ${dir}`);
  return JSON.parse(await readFile(join(dir, found), "utf8")) as SummaryData;
}

/** What every run must leave true: the other origin got nothing, and no output shows the Location's path. */
function nothingLeaked(target: RedirectTarget, everything: string): void {
  expect(target.redirected()).toBeGreaterThan(0);
  expect(target.caught).toEqual([]);
  expect(everything).not.toContain("location-path-marker");
  expect(everything).not.toContain("location-query-marker");
  expect(everything).not.toContain(LOCATION_PATH_MARKER);
  for (const leak of [SECRET, encodeURIComponent(SECRET)]) expect(everything).not.toContain(leak);
}

describe("no request of the harness follows a redirect to another origin", () => {
  it(
    "contract: an events endpoint that redirects FAILs the bearer checks, naming the status and the origin",
    async ({ tmpDir: reports }) => {
      const { run, target, everything } = await against(
        reports,
        { redirect: ["events"] },
        ["contract"],
        "contract-events",
      );
      nothingLeaked(target, everything);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).not.toContain("rejected with 307");
      expect(run.stdout).toMatch(
        new RegExp(`FAIL +bearer\\.missing +MUST +.*307.*redirect to ${target.otherOrigin}(?![/\\w])`),
      );
    },
    LIMIT_MS,
  );

  it(
    "contract: a token endpoint that redirects FAILs token.issued, naming the status and the origin",
    async ({ tmpDir: reports }) => {
      const { run, target, everything } = await against(
        reports,
        { redirect: ["token"], status: 308 },
        ["contract"],
        "contract-token",
      );
      nothingLeaked(target, everything);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(
        new RegExp(`FAIL +token\\.issued +MUST +.*308.*redirect to ${target.otherOrigin}(?![/\\w])`),
      );
    },
    LIMIT_MS,
  );

  it(
    "verify-rotation: a redirected token request FAILs rotation.new-secret",
    async ({ tmpDir: reports }) => {
      const { run, target, everything } = await against(
        reports,
        { redirect: ["token"] },
        ["verify-rotation"],
        "rotation",
      );
      nothingLeaked(target, everything);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toMatch(
        new RegExp(`FAIL +rotation\\.new-secret +MUST +.*307.*redirect to ${target.otherOrigin}(?![/\\w])`),
      );
    },
    LIMIT_MS,
  );

  it(
    "sandbox-rotate: a redirected admin request is not followed, and the reason names the origin",
    async () => {
      const target = await startRedirectTarget({ redirect: ["admin"] });
      try {
        const run = await runCli(
          [
            "sandbox-rotate",
            "--auth-url",
            `${target.url}/auth`,
            "--client-id",
            CLIENT_ID,
            "--show-secret",
            "--timeout",
            "3",
          ],
          { EVENT_HARNESS_ADMIN_TOKEN: ADMIN_TOKEN },
          LIMIT_MS,
        );
        const everything = `${run.stdout}${run.stderr}`;
        nothingLeaked(target, everything);
        expect(everything).not.toContain(ADMIN_TOKEN);
        expect(run.code, run.stderr).toBe(3);
        expect(run.stderr).toMatch(new RegExp(`307.*redirect to ${target.otherOrigin}(?![/\\w])`));
      } finally {
        await target.close();
      }
    },
    LIMIT_MS,
  );

  it(
    "load preflight: a redirected token request stops the run before k6 (exit 3), naming the origin",
    async ({ tmpDir: reports }) => {
      const { run, target, everything } = await against(
        reports,
        { redirect: ["token"] },
        ["load", "sustained", "--rate", "5", "--duration", "2s", "--vus", "2"],
        "preflight",
      );
      nothingLeaked(target, everything);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toMatch(new RegExp(`307.*redirect to ${target.otherOrigin}(?![/\\w])`));
    },
    LIMIT_MS,
  );

  for (const redirect of ["token", "events"] as const) {
    it(
      `load (real k6): a ${redirect} endpoint that redirects after the preflight gets nothing sent on, and the run FAILS`,
      async ({ tmpDir: reports }) => {
        const { run, target, everything } = await against(
          reports,
          // The preflight's one token is honest; every k6 token request after it is redirected.
          { redirect: [redirect], honestTokens: 1, status: 307 },
          ["load", "sustained", "--rate", "5", "--duration", "2s", "--vus", "2"],
          `load-${redirect}`,
        );
        nothingLeaked(target, everything);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).not.toMatch(/\bPASSED\b/);
        expect(run.stdout).toMatch(/redirects/);
        if (redirect === "events") {
          // Every event was redirected: the breakdown names them 3xx, and nothing is left as "other".
          expect(run.stdout).toMatch(/not accepted (\d+) \[3xx×\1\]/);
          // The live progress's figures from the same k6 counters: k6 calls a 3xx expected, the harness never.
          const { metrics } = await summaryUnder(join(reports, `load-${redirect}`));
          const counters = new Map(Object.entries(metrics).map(([name, metric]) => [name, metric.values]));
          expect(counters.get(EVENTS_ACCEPTED)?.count).toBeGreaterThan(0);
          expect(progressFigures([counters])).toMatchObject({
            accepted: 0,
            failed: counters.get("events_rejected")?.count,
          });
        }
      },
      LIMIT_MS,
    );
  }
});
