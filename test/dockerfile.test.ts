import { readdir, readFile } from "node:fs/promises";
import type { ValidatorSettings } from "dockerfile-utils";
import { ValidationSeverity, validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import {
  K6_HARNESS_EXTENSION,
  K6_SAMPLES_OUTPUT,
  K6_TOOL_DIR,
  pinnedK6Version,
} from "../k6-tooling/binary/k6-binary.ts";

// No image can be built here (no Docker daemon) and hadolint is not installable: dockerfile-utils (the validator
// behind VS Code's Dockerfile support) checks the syntax, and the rest checks what the README promises of the image.
const root = new URL("../", import.meta.url);
const dockerfile = await readFile(new URL("Dockerfile", root), "utf8");
const dockerignore = await readFile(new URL(".dockerignore", root), "utf8");
const packageJson = JSON.parse(await readFile(new URL("package.json", root), "utf8")) as {
  bin: Record<string, string>;
  engines: { node: string };
};
const goMod = await readFile(new URL("tools/k6/go.mod", root), "utf8");

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

/** The Dockerfile as instructions: comments dropped, continuation lines joined. */
function instructions(text: string): Instruction[] {
  const logical = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  return logical
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

const all = instructions(dockerfile);
const stages: Instruction[][] = [];
for (const instruction of all) {
  if (instruction.keyword === "FROM") stages.push([]);
  stages.at(-1)?.push(instruction);
}
const globalArgs = Object.fromEntries(
  all
    .slice(
      0,
      all.findIndex((instruction) => instruction.keyword === "FROM"),
    )
    .filter((instruction) => instruction.keyword === "ARG")
    .map((instruction) => instruction.args.split("=") as [string, string]),
);
const expand = (text: string) =>
  text.replace(/\$\{(\w+)\}/g, (_, name: string) => globalArgs[name] ?? `\${${name}}`);
const final = stages.at(-1) ?? [];
const find = (stage: Instruction[], keyword: string) => stage.filter((i) => i.keyword === keyword);
const stageNamed = (name: string) =>
  stages.find((stage) => stage[0]?.args.endsWith(` AS ${name}`)) ?? expect.fail(`no stage ${name}`);

/** Every rule dockerfile-utils can switch on, as an error. */
const STRICTEST: ValidatorSettings = {
  deprecatedMaintainer: ValidationSeverity.ERROR,
  directiveCasing: ValidationSeverity.ERROR,
  emptyContinuationLine: ValidationSeverity.ERROR,
  instructionCasing: ValidationSeverity.ERROR,
  instructionCmdMultiple: ValidationSeverity.ERROR,
  instructionEntrypointMultiple: ValidationSeverity.ERROR,
  instructionHealthcheckMultiple: ValidationSeverity.ERROR,
  instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
  instructionWorkdirRelative: ValidationSeverity.ERROR,
};

describe("Dockerfile", () => {
  it("has no problem dockerfile-utils finds, with every rule at its strictest", () => {
    expect(
      validate(dockerfile, STRICTEST).map((d) => `line ${d.range.start.line + 1}: ${d.message}`),
    ).toEqual([]);
  });

  it("is checked by a validator that does find problems", () => {
    const broken = dockerfile
      .replace("COPY --from=k6", "COPY --form=k6")
      .replace("\nUSER node", "\nUSR node");
    const messages = validate(broken, STRICTEST).map((d) => d.message);
    expect(messages).toContain("Unknown flag: form");
    expect(messages).toContain("Unknown instruction: USR");
  });

  it("is multi-stage: k6 from Go, the packed harness from Node, a Node runtime", () => {
    expect(stages).toHaveLength(3);
    expect(stageNamed("k6")[0]?.args).toMatch(/^golang:/);
    expect(stageNamed("pack")[0]?.args).toMatch(/^node:/);
    expect(final[0]?.args).toMatch(/^node:\S+-slim$/);
  });

  it("pins every base image by an explicit version tag (no latest, no bare name)", () => {
    for (const stage of stages) {
      const image = expand(stage[0]?.args.split(" ")[0] ?? "");
      expect(image).toMatch(/^[a-z0-9]+:\d+(\.\d+)+(-[a-z0-9-]+)?$/);
    }
  });

  it("uses the Go and Node versions the project asks for", () => {
    const goNeeded = /^go (\d+)\.(\d+)/m.exec(goMod);
    const [major = "", minor = ""] = (globalArgs.GO_VERSION ?? "").split(".");
    expect(Number(major)).toBe(Number(goNeeded?.[1]));
    expect(Number(minor)).toBeGreaterThanOrEqual(Number(goNeeded?.[2]));
    const nodeMajor = Number((globalArgs.NODE_VERSION ?? "").split(".")[0]);
    // Node 20 at or above the floor package.json's engines set for it (test/package-engines.test.ts).
    const [, nodeMinor = 0] = (globalArgs.NODE_VERSION ?? "").split(".").map(Number);
    expect(packageJson.engines.node).toMatch(/^\^20\.19\.0 \|\| /);
    expect(nodeMajor).toBe(20);
    expect(nodeMinor).toBeGreaterThanOrEqual(19);
  });

  it("builds k6 from tools/k6's go.mod and go.sum, as the harness does, never another version", async () => {
    const k6 = stageNamed("k6");
    // Every Go package of tools/k6 is copied in, so an extension added there cannot be left out of the image.
    const packages = (await readdir(K6_TOOL_DIR, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(packages).toEqual(["harness", "samples"]);
    expect(find(k6, "COPY").map((i) => i.args)).toEqual([
      "tools/k6/go.mod tools/k6/go.sum ./",
      "tools/k6/main.go ./",
      ...packages.map((name) => `tools/k6/${name} ./${name}`),
    ]);
    // tools/k6's main package: k6 with k6/x/harness and harness-samples, as k6-tooling/binary/k6-binary.ts builds it.
    const build = find(k6, "RUN").find((i) => i.args.includes("go build"));
    expect(build?.args).toContain("go build -trimpath -o /out/k6 .");
    expect(build?.args).toContain(`grep -F ' ${K6_HARNESS_EXTENSION} [js]'`);
    expect(build?.args).toContain(`grep -F ' ${K6_SAMPLES_OUTPUT} [output]'`);
    expect(build?.args).toContain("CGO_ENABLED=0");
    expect(dockerfile).not.toMatch(/go install|k6\/v2@/);
    const versions = dockerfile.match(/\bv2\.\d+\.\d+\b/g) ?? [];
    for (const version of versions) expect(version).toBe(await pinnedK6Version());
  });

  it("packs the harness with npm ci and npm pack, and installs that tarball with the tree it was tested with", async () => {
    const pack = stageNamed("pack")
      .filter((i) => i.keyword === "RUN")
      .map((i) => i.args);
    expect(pack.some((run) => run.startsWith("npm ci "))).toBe(true);
    expect(pack.some((run) => run.includes("npm pack "))).toBe(true);
    const install = find(final, "RUN").map((i) => i.args);
    // npm install of a tarball resolves its dependencies afresh; npm ci installs the consumer lock's tree exactly.
    expect(install.some((run) => /\bnpm install\b/.test(run))).toBe(false);
    expect(install.some((run) => run.startsWith("npm ci "))).toBe(true);
    const copies = find(final, "COPY").map((i) => i.args);
    const consumer = "examples/consumer/ci/event-harness";
    expect(copies).toContain(`${consumer}/package.json ${consumer}/package-lock.json ./`);
    expect(copies).toContain("--from=pack /out/event-api-harness-*.tgz ./");
    // The lock names the tarball npm pack writes for this version.
    const consumerJson = JSON.parse(await readFile(new URL(`${consumer}/package.json`, root), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const version = (JSON.parse(await readFile(new URL("package.json", root), "utf8")) as { version: string })
      .version;
    expect(consumerJson.dependencies["event-api-harness"]).toBe(`file:event-api-harness-${version}.tgz`);
  });

  it("puts k6 where K6_BIN points", () => {
    const env = find(final, "ENV")
      .map((i) => i.args)
      .join(" ");
    const k6Bin = /K6_BIN=(\S+)/.exec(env)?.[1];
    expect(k6Bin).toBeDefined();
    expect(find(final, "COPY").map((i) => i.args)).toContain(`--from=k6 /out/k6 ${k6Bin}`);
  });

  it("runs as a non-root user, set after the last RUN", () => {
    const users = find(final, "USER");
    expect(users).toHaveLength(1);
    expect(users[0]?.args).not.toMatch(/^(root|0)(:|$)/);
    const userAt = final.indexOf(users[0] as Instruction);
    expect(final.findLastIndex((i) => i.keyword === "RUN")).toBeLessThan(userAt);
  });

  it('starts as ENTRYPOINT ["event-harness"] (exec form), the package\'s bin, with CMD ["--help"]', () => {
    expect(find(final, "ENTRYPOINT").map((i) => i.args)).toEqual(['["event-harness"]']);
    expect(Object.keys(packageJson.bin)).toContain("event-harness");
    expect(find(final, "CMD").map((i) => JSON.parse(i.args) as unknown)).toEqual([["--help"]]);
  });

  it("keeps reports in a volume under the working directory", () => {
    const workdir = find(final, "WORKDIR").at(-1)?.args;
    expect(find(final, "VOLUME").map((i) => JSON.parse(i.args) as unknown)).toEqual([[`${workdir}/reports`]]);
  });

  it("leaves dependencies, builds, tools and run output out of the build context", () => {
    const ignored = dockerignore.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    for (const path of [".git", "node_modules", "dist", ".tools", "reports"]) expect(ignored).toContain(path);
  });
});
