import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { checkJava, ensureKeycloak, KeycloakToolError } from "../../../scripts/keycloak/install-keycloak.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** A stand-in `java` at `dir/java` that writes `versionLine` to stderr, as `java -version` does. */
async function fakeJava(dir: string, versionLine: string, exitCode = 0): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "java");
  await writeFile(
    file,
    `#!/bin/sh\necho '${versionLine}' >&2\necho 'OpenJDK Runtime Environment' >&2\nexit ${exitCode}\n`,
  );
  await chmod(file, 0o755);
  return file;
}

describe("checkJava", () => {
  it("takes a Java 17 or later from PATH", async ({ tmpDir }) => {
    const java = await fakeJava(path.join(tmpDir, "bin"), 'openjdk version "17.0.9" 2023-10-17');
    expect(
      await checkJava({ PATH: `${path.join(tmpDir, "empty")}${path.delimiter}${path.dirname(java)}` }),
    ).toBe(java);
    const java25 = await fakeJava(path.join(tmpDir, "25"), 'openjdk version "25" 2025-09-16');
    expect(await checkJava({ PATH: path.dirname(java25) })).toBe(java25);
  });

  it("runs the Java kc.sh would: $JAVA first, then $JAVA_HOME/bin/java, then PATH", async ({ tmpDir }) => {
    const explicit = await fakeJava(path.join(tmpDir, "explicit"), 'openjdk version "21.0.1"');
    const home = await fakeJava(path.join(tmpDir, "home", "bin"), 'openjdk version "21.0.1"');
    const onPath = await fakeJava(path.join(tmpDir, "path"), 'openjdk version "21.0.1"');
    const PATH = path.dirname(onPath);
    const JAVA_HOME = path.join(tmpDir, "home");
    expect(await checkJava({ JAVA: explicit, JAVA_HOME, PATH })).toBe(explicit);
    expect(await checkJava({ JAVA_HOME, PATH })).toBe(home);
    expect(await checkJava({ PATH })).toBe(onPath);
  });

  it("refuses a Java older than 17, read in either numbering, saying what it found", async ({ tmpDir }) => {
    const java8 = await fakeJava(path.join(tmpDir, "8"), 'java version "1.8.0_392"');
    await expect(checkJava({ JAVA: java8 })).rejects.toThrow(
      new RegExp(`needs Java 17 or later .*; ${java8} is java version "1\\.8\\.0_392"$`),
    );
    const java11 = await fakeJava(path.join(tmpDir, "11"), 'openjdk version "11.0.21" 2023-10-17');
    await expect(checkJava({ JAVA: java11 })).rejects.toBeInstanceOf(KeycloakToolError);
    const java16 = await fakeJava(path.join(tmpDir, "16"), 'openjdk version "16.0.2"');
    await expect(checkJava({ JAVA: java16 })).rejects.toBeInstanceOf(KeycloakToolError);
  });

  it("refuses a java that prints no version, or does not run, or is not there", async ({ tmpDir }) => {
    const quiet = await fakeJava(path.join(tmpDir, "quiet"), "hello");
    await expect(checkJava({ JAVA: quiet })).rejects.toThrow(`${quiet} is hello`);
    const failing = await fakeJava(path.join(tmpDir, "failing"), 'openjdk version "21"', 1);
    await expect(checkJava({ JAVA: failing })).rejects.toThrow(`${failing} did not run`);
    await expect(checkJava({ PATH: path.join(tmpDir, "none") })).rejects.toThrow(
      "no java on PATH, and neither JAVA nor JAVA_HOME is set",
    );
  });
});

describe("ensureKeycloak", () => {
  it("checks Java before anything else, and says what to install", async ({ tmpDir }) => {
    const java8 = await fakeJava(path.join(tmpDir, "8"), 'java version "1.8.0_392"');
    const lines: string[] = [];
    const attempt = ensureKeycloak({ JAVA: java8, PATH: "" }, (line) => lines.push(line));
    await expect(attempt).rejects.toBeInstanceOf(KeycloakToolError);
    await expect(attempt).rejects.toThrow("apt-get install openjdk-17-jre-headless");
    expect(lines).toEqual([]);
  });
});
