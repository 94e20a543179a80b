import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { PassThrough } from "node:stream";
import type { K6Binary } from "../../../k6-tooling/binary/k6-binary.ts";
import { runK6, withBodyCap } from "../../../k6-tooling/run/k6-runner.ts";
import { VU_BODY_CAP_ENV } from "../../../load/index.ts";
import { Redactor } from "../../../transport/index.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

const SECRET = "runner-secret-0c41d7e2";

/** A stand-in k6 at `dir/k6` running the shell `lines`. */
async function fakeK6(dir: string, lines: readonly string[], harnessExtension = false): Promise<K6Binary> {
  const file = path.join(dir, "k6");
  await writeFile(file, ["#!/bin/sh", ...lines, ""].join("\n"));
  await chmod(file, 0o755);
  return { path: file, version: "v2.2.0", source: "K6_BIN", harnessExtension, samplesOutput: false };
}

/** A stream that keeps what is written to it; `line(text)` resolves once a line holding `text` has been written. */
function collect() {
  const stream = new PassThrough();
  let text = "";
  const waiting: Array<[string, () => void]> = [];
  stream.setEncoding("utf8").on("data", (chunk: string) => {
    text += chunk;
    for (const [needle, resolve] of waiting) if (text.includes(needle)) resolve();
  });
  return {
    stream,
    text: () => text,
    line: (needle: string) => new Promise<void>((resolve) => waiting.push([needle, resolve])),
  };
}

/** A k6 that says it started, then runs until SIGINT, when it says so and exits as k6 does on an interrupt. */
const UNTIL_INTERRUPTED = [
  "trap 'echo stopping; exit 105' INT",
  "echo started",
  "i=0",
  // Bounded: 600 rounds of 0.1 s at most, should no signal come.
  'while [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done',
  "exit 0",
];

function options(
  k6: K6Binary,
  stdout: PassThrough,
  stderr: PassThrough,
  more: Partial<Parameters<typeof runK6>[0]> = {},
) {
  return {
    k6,
    script: "script.js",
    env: { PATH: process.env.PATH ?? "" },
    stdout,
    stderr,
    redactor: new Redactor().add(SECRET, "<CLIENT_SECRET>"),
    signal: new AbortController().signal,
    maxSeconds: 60,
    ...more,
  };
}

describe("withBodyCap", () => {
  it("adds the 1 MiB body cap for the harness's own k6 only, leaving the given environment as it was", () => {
    const env = { A: "1" };
    expect(withBodyCap({ harnessExtension: true }, env)).toEqual({ A: "1", [VU_BODY_CAP_ENV]: "1048576" });
    const plain = withBodyCap({ harnessExtension: false }, env);
    expect(plain).toEqual({ A: "1" });
    plain.B = "2";
    expect(env).toEqual({ A: "1" });
  });
});

// Each run waits out one CPU sample of k6 (half a second): the runs go side by side.
describe.concurrent("runK6", () => {
  it("runs `k6 run --quiet --no-color`, the caller's arguments, then the script, with only the given environment", async ({
    tmpDir,
  }) => {
    const k6 = await fakeK6(
      tmpDir,
      ['printf "%s|" "$@"; echo', 'echo "secret=$EVENT_SECRET cap=$EH_BODY_CAP home=[$HOME]"'],
      true,
    );
    const stdout = collect();
    const result = await runK6(
      options(k6, stdout.stream, collect().stream, {
        args: ["--address", "127.0.0.1:0"],
        env: { PATH: process.env.PATH ?? "", EVENT_SECRET: SECRET },
      }),
    );
    expect(result).toMatchObject({
      exitCode: 0,
      aborted: false,
      timedOut: false,
      loggedErrors: 0,
      insufficientVus: 0,
    });
    expect(stdout.text()).toBe(
      "run|--quiet|--no-color|--address|127.0.0.1:0|script.js|\nsecret=<CLIENT_SECRET> cap=1048576 home=[]\n",
    );
  });

  it("relays k6's output as inert text: controls shown, secrets hidden, one line each", async ({
    tmpDir,
  }) => {
    const k6 = await fakeK6(tmpDir, [
      `printf 'quoted \\033[31mred\\033[0m ${SECRET}\\r\\n'`,
      "printf '::error::forged\\n' >&2",
      "exit 7",
    ]);
    const stdout = collect();
    const stderr = collect();
    const result = await runK6(options(k6, stdout.stream, stderr.stream));
    expect(result.exitCode).toBe(7);
    expect(stdout.text()).toBe("quoted \\x1b[31mred\\x1b[0m <CLIENT_SECRET>\n");
    expect(stderr.text()).toBe("\\x3a:error::forged\n");
  });

  it("stops k6 with SIGINT when the run is aborted, and says so", async ({ tmpDir }) => {
    const k6 = await fakeK6(tmpDir, UNTIL_INTERRUPTED);
    const stdout = collect();
    const controller = new AbortController();
    const running = runK6(options(k6, stdout.stream, collect().stream, { signal: controller.signal }));
    await stdout.line("started");
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ exitCode: 105, aborted: true, timedOut: false });
    expect(stdout.text()).toBe("started\nstopping\n");
  });

  it("stops k6 at once when the run was aborted before it started", async ({ tmpDir }) => {
    const k6 = await fakeK6(tmpDir, UNTIL_INTERRUPTED);
    const controller = new AbortController();
    controller.abort();
    const result = await runK6(
      options(k6, collect().stream, collect().stream, { signal: controller.signal }),
    );
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
  });

  it("stops k6 with SIGINT past its time limit, and says it timed out", async ({ tmpDir }) => {
    const k6 = await fakeK6(tmpDir, UNTIL_INTERRUPTED);
    const stdout = collect();
    const result = await runK6(options(k6, stdout.stream, collect().stream, { maxSeconds: 0.3 }));
    expect(result).toMatchObject({ exitCode: 105, aborted: false, timedOut: true });
    expect(stdout.text()).toContain("stopping\n");
  });

  it("rejects when k6 cannot be started", async ({ tmpDir }) => {
    const missing: K6Binary = {
      path: path.join(tmpDir, "no-k6"),
      version: "v2.2.0",
      source: "K6_BIN",
      harnessExtension: false,
      samplesOutput: false,
    };
    await expect(runK6(options(missing, collect().stream, collect().stream))).rejects.toThrow(/ENOENT/);
  });
});
