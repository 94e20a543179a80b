import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import { runK6 } from "../../../k6-tooling/run/k6-runner.ts";
import { Redactor } from "../../../transport/index.ts";
import { it as base, describe, expect } from "../../support/fixtures.ts";

const SECRET = "k6-log-secret-value-1234";

/** A stand-in for k6 at `file`: a shell script that runs `lines`. */
async function fakeK6At(file: string, lines: readonly string[]): Promise<string> {
  await writeFile(file, ["#!/bin/sh", ...lines, ""].join("\n"));
  await chmod(file, 0o755);
  return file;
}

const it = base
  // Writes what k6 writes on stderr: its own logfmt lines between plain ones.
  .extend("fakeK6", { scope: "file" }, async ({ fileDir }) =>
    fakeK6At(path.join(fileDir, "k6"), [
      `echo 'time="2026-11-25T21:00:00Z" level=error msg="request failed with ${SECRET}"' >&2`,
      "echo 'a plain line' >&2",
      `echo 'time="2026-11-25T21:00:01Z" level=warning msg="slow"' >&2`,
      `echo 'time="2026-11-25T21:00:01Z" level=warning msg="Insufficient VUs, reached 10 active VUs and cannot initialize more" executor=constant-arrival-rate scenario=sustained' >&2`,
      `echo 'time="2026-11-25T21:00:02Z" level=warning msg="Insufficient VUs, reached 10 active VUs and cannot initialize more" executor=constant-arrival-rate scenario=sustained' >&2`,
      "echo 'Insufficient VUs in a plain line is no warning of k6' >&2",
      "exit 0",
    ]),
  )
  // What k6 v2 writes when a threshold fails: its verdict, which the harness reports itself.
  .extend("thresholdsK6", { scope: "file" }, async ({ fileDir }) =>
    fakeK6At(path.join(fileDir, "k6-thresholds"), [
      "cat >&2 <<'EOF'",
      `time="2026-11-25T21:00:02Z" level=error msg="thresholds on metrics 'events_failed, http_req_duration{endpoint:events}' have been crossed"`,
      "EOF",
      "exit 99",
    ]),
  )
  // What k6 warns when an arrival-rate scenario has no VU free for an iteration: the cause of dropped iterations.
  .extend("shortK6", { scope: "file" }, async ({ fileDir }) =>
    fakeK6At(path.join(fileDir, "k6-short"), [
      "cat >&2 <<'EOF'",
      `time="2026-11-28T17:34:27Z" level=warning msg="Insufficient VUs, reached 2 active VUs and cannot initialize more" executor=constant-arrival-rate scenario=sustained`,
      `time="2026-11-28T17:34:29Z" level=warning msg="Insufficient VUs, reached 2 active VUs and cannot initialize more" executor=constant-arrival-rate scenario=sustained`,
      "EOF",
      "exit 99",
    ]),
  );

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

/** runK6 on a stand-in k6, its console into `stdout` and `stderr`, its log into `logFile` when given. */
function runFakeK6(
  k6Path: string,
  io: { stdout: PassThrough; stderr: PassThrough; redactor?: Redactor; logFile?: string },
) {
  return runK6({
    k6: { path: k6Path, version: "v2.2.0", harnessExtension: false } as never,
    script: "script.js",
    env: {},
    stdout: io.stdout,
    stderr: io.stderr,
    redactor: io.redactor ?? new Redactor(),
    signal: new AbortController().signal,
    maxSeconds: 60,
    ...(io.logFile === undefined ? {} : { logFile: io.logFile }),
  });
}

describe("runK6 with a log file", () => {
  it("keeps k6's own log lines out of the console, redacted in the file, and counts its errors", async ({
    fileDir: work,
    fakeK6,
  }) => {
    const stdout = collect();
    const stderr = collect();
    const logFile = path.join(work, "k6.log");
    const result = await runFakeK6(fakeK6, {
      stdout: stdout.stream,
      stderr: stderr.stream,
      redactor: new Redactor().add(SECRET, "<CLIENT_SECRET>"),
      logFile,
    });
    expect(stderr.text()).toBe("a plain line\nInsufficient VUs in a plain line is no warning of k6\n");
    const log = await readFile(logFile, "utf8");
    expect(log).toContain('level=error msg="request failed with <CLIENT_SECRET>"');
    expect(log).toContain("level=warning");
    expect(log).not.toContain(SECRET);
    expect(result.loggedErrors).toBe(1);
    // k6's warnings that an arrival-rate scenario ran out of VUs: a signal of the generator's own limit.
    expect(result.insufficientVus).toBe(2);
  });

  it("does not count k6's own 'thresholds have been crossed' as an error line: the harness reports thresholds itself", async ({
    fileDir: work,
    thresholdsK6,
  }) => {
    const stderr = collect();
    const logFile = path.join(work, "k6-thresholds.log");
    const result = await runFakeK6(thresholdsK6, {
      stdout: collect().stream,
      stderr: stderr.stream,
      logFile,
    });
    expect(result.exitCode).toBe(99);
    expect(result.loggedErrors).toBe(0);
    expect(stderr.text()).toBe("");
    expect(await readFile(logFile, "utf8")).toContain("have been crossed");
  });
});

describe("runK6 when k6 runs out of VUs", () => {
  it.for([
    ["with a log file", true],
    ["without one (an instance of several)", false],
  ] as const)(
    "keeps k6's warning, the cause of dropped iterations, for the reports, %s",
    async ([, withLog], { fileDir: work, shortK6 }) => {
      const stderr = collect();
      const result = await runFakeK6(shortK6, {
        stdout: collect().stream,
        stderr: stderr.stream,
        ...(withLog ? { logFile: path.join(work, "k6-short.log") } : {}),
      });
      expect(result.vuShortage).toBe("Insufficient VUs, reached 2 active VUs and cannot initialize more");
    },
  );
});
