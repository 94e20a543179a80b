import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Writable } from "node:stream";
import { UsageError } from "../../../core/index.ts";
import {
  ensureK6,
  findK6,
  k6Identity,
  recordBuildSource,
  whichOnPath,
} from "../../../k6-tooling/binary/k6-binary.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** An executable shell script at `dir/name` running `body`. */
async function script(dir: string, name: string, body: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

/** What k6 v2.2.0's `k6 version` prints for a build with the harness's extension and output. */
const OWN_BUILD_VERSION = [
  "k6 v2.2.0 (go1.26.8, linux/amd64)",
  "Extensions:",
  "  event-api-harness/tools/k6/harness , k6/x/harness [js]",
  "  event-api-harness/tools/k6/samples.New , harness-samples [output]",
].join("\n");

/** A stand-in `go` whose `go build -trimpath -o FILE .` writes a k6 printing `version` (or fails with `failure`). */
async function fakeGo(dir: string, version: string, failure?: string): Promise<string> {
  const body =
    failure === undefined
      ? `printf '#!/bin/sh\\ncat <<"EOF"\\n%s\\nEOF\\n' '${version}' > "$4"\n/usr/bin/chmod 755 "$4"`
      : `echo '${failure}' >&2\nexit 3`;
  return script(dir, "go", body);
}

/** A stream that keeps what is written to it, as it is written. */
function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join("") };
}

describe("whichOnPath", () => {
  it("finds the first executable of that name along PATH, as a shell would", async ({ tmpDir: dir }) => {
    const notExecutable = path.join(dir, "a");
    await mkdir(notExecutable);
    await writeFile(path.join(notExecutable, "tool"), "not a program");
    const found = await script(path.join(dir, "b"), "tool", "exit 0");
    await script(path.join(dir, "c"), "tool", "exit 0");
    const PATH = ["", notExecutable, path.join(dir, "b"), path.join(dir, "c")].join(path.delimiter);
    expect(await whichOnPath("tool", { PATH })).toBe(found);
  });

  it("finds nothing on an empty or missing PATH", async () => {
    expect(await whichOnPath("sh", { PATH: "" })).toBeUndefined();
    expect(await whichOnPath("sh", {})).toBeUndefined();
  });
});

describe("k6Identity", () => {
  it("reads the version and the harness's extension and output from `k6 version`", async ({
    tmpDir: dir,
  }) => {
    const own = await script(dir, "own", `cat <<"EOF"\n${OWN_BUILD_VERSION}\nEOF`);
    expect(await k6Identity(own)).toEqual({ version: "v2.2.0", harnessExtension: true, samplesOutput: true });
  });

  it("does not take a line that only names the extension for the extension itself", async ({
    tmpDir: dir,
  }) => {
    const lookalike = await script(
      dir,
      "lookalike",
      'echo "k6 v2.3.1-rc.1 (go1.26.8)"\necho "  someone/k6/x/harness-fork , k6/x/harness-fork [js]"\n' +
        'echo "  harness-samples [js]"',
    );
    expect(await k6Identity(lookalike)).toEqual({
      version: "v2.3.1-rc.1",
      harnessExtension: false,
      samplesOutput: false,
    });
  });

  it("refuses a program that prints no k6 version, or fails", async ({ tmpDir: dir }) => {
    const other = await script(dir, "other", 'echo "not k6 at all"');
    await expect(k6Identity(other)).rejects.toThrow(/printed no k6 version/);
    const failing = await script(dir, "failing", "exit 4");
    await expect(k6Identity(failing)).rejects.toThrow();
  });

  it("runs the binary with PATH only, so no secret of the caller's environment reaches it", async ({
    tmpDir: dir,
  }) => {
    process.env.EVENT_HARNESS_TEST_SECRET = "s3cret-in-env";
    try {
      const echo = await script(dir, "echo", 'echo "k6 v2.0.0-x$EVENT_HARNESS_TEST_SECRET"');
      expect((await k6Identity(echo)).version).toBe("v2.0.0-x");
    } finally {
      delete process.env.EVENT_HARNESS_TEST_SECRET;
    }
  });
});

describe("findK6", () => {
  it("refuses a K6_BIN that does not run, with the coded error", async ({ tmpDir: dir }) => {
    const missing = path.join(dir, "no-such-k6");
    const attempt = findK6({ K6_BIN: ` ${missing} `, PATH: "" });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toMatchObject({ code: "missing-tool" });
    await expect(attempt).rejects.toThrow(`K6_BIN=${missing} is not a runnable k6`);
  });

  it("passes over a k6 on PATH that does not run, saying why, and has none to offer", async ({
    tmpDir: dir,
  }) => {
    const broken = await script(path.join(dir, "bin"), "k6", "exit 1");
    const found = await findK6(
      { K6_BIN: "  ", PATH: path.dirname(broken) },
      { localBin: path.join(dir, "none") },
    );
    expect(found.binary).toBeUndefined();
    expect(found.skipped).toHaveLength(1);
    expect(found.skipped[0]).toMatch(new RegExp(`^${broken} did not run \\(`));
  });
});

describe("ensureK6", () => {
  it("returns a k6 it finds without building or saying anything", async ({ tmpDir: dir }) => {
    const own = await script(dir, "k6", `cat <<"EOF"\n${OWN_BUILD_VERSION}\nEOF`);
    const stderr = capture();
    const binary = await ensureK6({ env: { K6_BIN: own, PATH: "" }, stderr: stderr.stream });
    expect(binary).toMatchObject({ path: own, source: "K6_BIN", version: "v2.2.0" });
    expect(stderr.text()).toBe("");
  });

  it("builds the pinned k6 with Go when none is found, and records what it was built from", async ({
    tmpDir: dir,
  }) => {
    const go = await fakeGo(path.join(dir, "go"), OWN_BUILD_VERSION);
    const localBin = path.join(dir, "tools", "bin", "k6");
    const stderr = capture();
    const binary = await ensureK6({ env: { PATH: path.dirname(go) }, stderr: stderr.stream, localBin });
    expect(binary).toEqual({
      path: localBin,
      version: "v2.2.0",
      source: "project",
      harnessExtension: true,
      samplesOutput: true,
    });
    expect(stderr.text()).toMatch(/building k6 v2\.\d+\.\d+\S* into .*tools[/\\]bin/);
    expect(stderr.text()).toContain(`built k6 v2.2.0 at ${localBin}`);
    // Renamed into place: no temporary file is left beside it, and the stamp is a SHA-256 in hex.
    expect((await readdir(path.dirname(localBin))).sort()).toEqual(["k6", "k6.source"]);
    expect((await readFile(`${localBin}.source`, "utf8")).trim()).toMatch(/^[0-9a-f]{64}$/);
    // The next lookup takes the build as it is.
    expect((await findK6({ PATH: "" }, { localBin })).binary?.source).toBe("project");
  });

  it("reports a failed build with its exit code and output, and leaves nothing behind", async ({
    tmpDir: dir,
  }) => {
    const go = await fakeGo(path.join(dir, "go"), "", "go: module lookup disabled");
    const localBin = path.join(dir, "tools", "bin", "k6");
    const attempt = ensureK6({ env: { PATH: path.dirname(go) }, stderr: capture().stream, localBin });
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toMatchObject({ code: "missing-tool" });
    await expect(attempt).rejects.toThrow(/go build exited 3.*\ngo: module lookup disabled$/s);
    expect(await readdir(path.dirname(localBin))).toEqual([]);
  });

  it("refuses a build that lacks the harness's output or is not k6 v2", async ({ tmpDir: dir }) => {
    const withoutSamples = OWN_BUILD_VERSION.split("\n").slice(0, 3).join("\n");
    const go = await fakeGo(path.join(dir, "go"), withoutSamples);
    const attempt = ensureK6({
      env: { PATH: path.dirname(go) },
      stderr: capture().stream,
      localBin: path.join(dir, "a", "k6"),
    });
    await expect(attempt).rejects.toMatchObject({ code: "missing-tool" });
    await expect(attempt).rejects.toThrow("the build produced a k6 without harness-samples");

    const v3 = await fakeGo(path.join(dir, "go3"), OWN_BUILD_VERSION.replace("v2.2.0", "v3.0.0"));
    await expect(
      ensureK6({
        env: { PATH: path.dirname(v3) },
        stderr: capture().stream,
        localBin: path.join(dir, "b", "k6"),
      }),
    ).rejects.toThrow("the build produced k6 v3.0.0, not v2.x");
  });

  it("says which candidates it skipped before building", async ({ tmpDir: dir }) => {
    const stale = await script(path.join(dir, "local"), "k6", `cat <<"EOF"\n${OWN_BUILD_VERSION}\nEOF`);
    await writeFile(`${stale}.source`, "0".repeat(64));
    const go = await fakeGo(path.join(dir, "go"), OWN_BUILD_VERSION);
    const stderr = capture();
    await ensureK6({ env: { PATH: path.dirname(go) }, stderr: stderr.stream, localBin: stale });
    expect(stderr.text()).toContain(
      `event-harness: skipping ${stale}, built from an older tools/k6 (rebuilding)\n`,
    );
    // Rebuilt in place, the stamp now matches what recordBuildSource writes.
    const rebuilt = await readFile(`${stale}.source`, "utf8");
    await recordBuildSource(stale);
    expect(await readFile(`${stale}.source`, "utf8")).toBe(rebuilt);
  });
});
