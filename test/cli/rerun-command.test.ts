import { execFileSync } from "node:child_process";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rerunCommand, shellWord, targetFlags } from "../../cli/rerun-command.ts";
import type { Target } from "../../transport/index.ts";
import { Secret } from "../../transport/index.ts";

/** The words a POSIX shell reads from `line`: sh itself is the oracle. */
function shellWords(line: string): string[] {
  const out = execFileSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

const TARGET: Target = {
  tokenUrl: "https://auth.example.com/oauth/token",
  baseUrl: "https://api.example.com",
  clientId: "shop",
  clientSecret: new Secret("never-on-a-command-line"),
  audience: "https://api.example.com",
  clientAuth: "post",
  tokenParams: { api_key: "secret-param-value" },
  timeoutMs: 10_000,
  connection: { insecure: false, proxy: { httpProxy: "", httpsProxy: "", noProxy: "" } },
  embedded: false,
};

describe("shellWord", () => {
  it("leaves a word bare when the shell would not act on any of its characters", () => {
    for (const word of ["contract", "--profile", "a/b.json", "key=v:1,2@h%+-_"])
      expect(shellWord(word)).toBe(word);
  });

  it("quotes the empty word and any word with a space, quote, dollar, glob or newline", () => {
    expect(shellWord("")).toBe("''");
    expect(shellWord("a b")).toBe("'a b'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("$HOME")).toBe("'$HOME'");
  });

  it("reads back as the same word in sh, whatever it holds", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: "binary" }).map((word) => word.replaceAll("\0", "")),
          { minLength: 1, maxLength: 4 },
        ),
        (words) => {
          expect(shellWords(words.map(shellWord).join(" "))).toEqual(words);
        },
      ),
      { numRuns: 40, seed: 3 },
    );
    const hostile = [
      "$(echo injected)",
      "$HOME",
      "x$1",
      "`id`",
      "a;b",
      "*",
      "~",
      "x\ny",
      "'",
      '"',
      "\\",
      "!",
      "#c",
      "a&b|c>d<e",
    ];
    expect(shellWords(hostile.map(shellWord).join(" "))).toEqual(hostile);
  });
});

describe("targetFlags", () => {
  it("names the endpoints and client of a default target, never its secret or token parameters", () => {
    const flags = targetFlags(TARGET);
    expect(flags).toEqual([
      "--token-url",
      "https://auth.example.com/oauth/token",
      "--base-url",
      "https://api.example.com",
      "--client-id",
      "shop",
    ]);
    expect(flags.join(" ")).not.toMatch(/never-on-a-command-line|secret-param-value|api_key/);
  });

  it("adds every setting a rerun would default differently", () => {
    expect(
      targetFlags({
        ...TARGET,
        clientAuth: "basic",
        scope: "events:write",
        audience: "urn:events",
        resource: "https://api.example.com/",
        channelId: "chl-1",
        timeoutMs: 2_500,
        connection: { ...TARGET.connection, insecure: true },
      }).slice(6),
    ).toEqual([
      "--client-auth",
      "basic",
      "--scope",
      "events:write",
      "--audience",
      "urn:events",
      "--resource",
      "https://api.example.com/",
      "--channel-id",
      "chl-1",
      "--timeout",
      "2.5",
      "--insecure",
    ]);
  });

  it("keeps a client authentication the user gave, and says 'none' for an audience not sent", () => {
    const { audience: _audience, ...noAudience } = TARGET;
    expect(targetFlags({ ...noAudience, clientAuthGiven: true }).slice(6)).toEqual([
      "--client-auth",
      "post",
      "--audience",
      "none",
    ]);
  });
});

describe("rerunCommand", () => {
  it("is the command's own words alone against the embedded sandbox", () => {
    expect(rerunCommand(["contract", "--profile", "fast"], undefined, undefined)).toBe(
      "npx --no-install event-harness contract --profile fast",
    );
  });

  it("adds the config file (relative inside the working directory) and environment, then the target's flags", () => {
    const config = { file: path.resolve("configs", "harness file.json"), environment: "staging" };
    const line = rerunCommand(["load", "--only", "a b"], TARGET, config);
    expect(line.startsWith("npx --no-install event-harness ")).toBe(true);
    expect(shellWords(line.replace(/^npx --no-install event-harness /, ""))).toEqual([
      "load",
      "--only",
      "a b",
      "--config",
      path.join("configs", "harness file.json"),
      "--environment",
      "staging",
      "--token-url",
      "https://auth.example.com/oauth/token",
      "--base-url",
      "https://api.example.com",
      "--client-id",
      "shop",
    ]);
  });

  it("keeps a config file outside the working directory absolute", () => {
    const line = rerunCommand(["contract"], undefined, { file: "/elsewhere/h.json", environment: "prod" });
    expect(line).toBe(
      "npx --no-install event-harness contract --config /elsewhere/h.json --environment prod",
    );
  });
});
