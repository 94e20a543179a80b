import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeRunReport } from "../../../reporting/run/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";
import { writeFixtureRun } from "./report-fixture.ts";

/** Debian's chromium only: no tool may download a browser. CI installs it in .ci/run. */
const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = fileURLToPath(new URL("../../../reports/browser/run-report.png", import.meta.url));
const BROWSER_TIMEOUT_MS = 60_000;

interface BrowserRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs headless Chromium once, offline and without a profile of its own; killed if it hangs. */
function chromium(profile: string, args: readonly string[]): Promise<BrowserRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
        `--user-data-dir=${profile}`,
        ...args,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (data: string) => {
      stdout += data;
    });
    child.stderr.setEncoding("utf8").on("data", (data: string) => {
      stderr += data;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), BROWSER_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The report both tests open, written once into the file's directory. */
const it = base.extend("page", { scope: "file" }, async ({ fileDir }) => {
  await writeRunReport(fileDir, await writeFixtureRun(fileDir), "index.html");
  return pathToFileURL(path.join(fileDir, "index.html")).href;
});

if (!existsSync(CHROMIUM)) {
  describe("index.html in headless Chromium", () => {
    base.skip(
      `skipped: ${CHROMIUM} is absent (install Debian's chromium: apt-get install -y chromium)`,
      () => {},
    );
  });
} else {
  describe("index.html in headless Chromium", () => {
    it(
      "renders the verdict and draws every chart, runs its script under its CSP, and keeps hostile text inert",
      async ({ fileDir, page }) => {
        const run = await chromium(path.join(fileDir, "profile-dom"), [
          "--virtual-time-budget=3000",
          "--dump-dom",
          page,
        ]);
        expect(run.code, run.stderr).toBe(0);
        const dom = run.stdout;
        // The script sets this once it has wired every chart: it ran, so the CSP hash matched.
        expect(dom).toMatch(/<html lang="en" data-report-ready="3">/);
        expect(dom).toMatch(/<h1 id="verdict" data-verdict="failed">.*Failed<\/h1>/);
        const charts = [...dom.matchAll(/<svg class="chart-svg"[\s\S]*?<\/svg>/g)].map((m) => m[0]);
        expect(charts).toHaveLength(3);
        for (const chart of charts) {
          const drawn = [...chart.matchAll(/data-points="(\d+)"/g)].map((m) => Number(m[1]));
          expect(Math.max(...drawn)).toBeGreaterThan(0);
          expect(chart).toMatch(/<path d="M[\d.]+ [\d.]+L|<rect x=/);
        }
        expect(dom).not.toMatch(/<img[\s>]/);
        expect(dom).toContain("&lt;script&gt;window.pwned=1&lt;/script&gt;");
        expect(run.stderr).not.toMatch(/Content Security Policy|Refused to/);
      },
      BROWSER_TIMEOUT_MS + 5_000,
    );

    it(
      `takes a screenshot and keeps it as ${path.relative(process.cwd(), SCREENSHOT)}`,
      async ({ fileDir, page }) => {
        await mkdir(path.dirname(SCREENSHOT), { recursive: true });
        await rm(SCREENSHOT, { force: true });
        const run = await chromium(path.join(fileDir, "profile-shot"), [
          "--window-size=1280,3300",
          "--virtual-time-budget=3000",
          `--screenshot=${SCREENSHOT}`,
          page,
        ]);
        expect(run.code, run.stderr).toBe(0);
        const png = await readFile(SCREENSHOT);
        expect(pngSize(png)).toEqual({ width: 1280, height: 3300 });
        // A blank page compresses to a few kB; a drawn report is far larger.
        expect(png.length).toBeGreaterThan(50_000);
      },
      BROWSER_TIMEOUT_MS + 5_000,
    );
  });
}
