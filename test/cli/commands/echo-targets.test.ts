import {
  ECHO_REFRESH_TOKEN,
  ECHO_TOKEN,
  secretEncodings,
  startEchoServer,
} from "../../support/echo-server.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { filesUnder } from "../../support/report-texts.ts";
import { runCli } from "../../support/run-cli.ts";
import { xmlProblems } from "../../support/xml-document.ts";

/** A secret with the characters encoders treat specially: a quote, a backslash, a slash, a space, +, %, non-ASCII. */
const SECRET = 'q7"R\\v/é +%Zx';
const CLIENT_ID = "echo-client";
const LIMIT_MS = 90_000;
/** Checks whose evidence and messages quote what the target said: the token, a wrong secret, an event, a cut token. */
const ONLY =
  "token.issued,token.wrong-secret-refused,events.accepted,events.wrong-content-type,bearer.truncated";

/**
 * Runs the real CLI (a child process, so whatever it writes anywhere is searched) against an echo server that writes
 * `echo` back, with its reports in `dir`; returns every output by name.
 */
async function against(
  dir: string,
  command: "contract" | "run",
  echo: string,
  secret = SECRET,
  only: string | undefined = ONLY,
): Promise<{ code: number | null; outputs: Map<string, string> }> {
  const server = await startEchoServer({ clientId: CLIENT_ID, secret, echo });
  try {
    const run = await runCli(
      [
        command,
        "--auth-url",
        `${server.url}/auth`,
        "--base-url",
        `${server.url}/api`,
        "--client-id",
        CLIENT_ID,
        "--timeout",
        "5",
        ...(command === "contract" && only !== undefined ? ["--only", only] : []),
        "--report-dir",
        dir,
      ],
      { EVENT_API_CLIENT_SECRET: secret },
      LIMIT_MS,
    );
    const outputs = await filesUnder(dir);
    outputs.set("console (stdout)", run.stdout);
    outputs.set("console (stderr)", run.stderr);
    return { code: run.code, outputs };
  } finally {
    await server.close();
  }
}

/** A form as each output would write it: as is, inside a JSON string, HTML- and XML-escaped. */
function written(form: string): string[] {
  const html = form
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
  return [form, JSON.stringify(form).slice(1, -1), html, html.replaceAll("&#39;", "'")];
}

function leaks(outputs: Map<string, string>, forms: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of outputs) {
    for (const [encoding, form] of Object.entries(forms)) {
      if (written(form).some((needle) => text.includes(needle))) found.push(`${encoding} in ${file}`);
    }
  }
  return found;
}

const ENCODINGS = secretEncodings(CLIENT_ID, SECRET);
const REPORTS = ["results.json", "junit.xml", "summary.md"];

describe("no secret leaks from what a target echoes, in any encoding", () => {
  for (const [encoding, form] of Object.entries(ENCODINGS)) {
    it(
      `contract: a target echoing the secret ${encoding} leaves it in no output`,
      async ({ tmpDir }) => {
        const { code, outputs } = await against(tmpDir, "contract", `echo ${form} echo`);
        expect(code).toBe(1);
        for (const file of REPORTS) expect([...outputs.keys()]).toContain(file);
        expect(leaks(outputs, ENCODINGS)).toEqual([]);
      },
      LIMIT_MS,
    );
  }

  it(
    "run: a target echoing the secret in every encoding leaves it in no output, index.html included",
    async ({ tmpDir }) => {
      const echo = Object.values(ENCODINGS).join(" ");
      const { code, outputs } = await against(tmpDir, "run", echo);
      expect(code).toBe(1);
      const names = [...outputs.keys()];
      for (const file of ["index.html", "summary.md", "run.json", "contract/results.json"]) {
        expect(names.some((name) => name.endsWith(file))).toBe(true);
      }
      expect(leaks(outputs, ENCODINGS)).toEqual([]);
    },
    LIMIT_MS,
  );

  it(
    "no output carries 8 characters in a row of a token, bearer.truncated's curl line and a refresh token included",
    async ({ tmpDir }) => {
      const { outputs } = await against(tmpDir, "contract", "echo");
      const windows = Object.fromEntries(
        [ECHO_TOKEN, ECHO_REFRESH_TOKEN].flatMap((token) =>
          Array.from({ length: token.length - 7 }, (_, k) => [`${token}[${k}..]`, token.slice(k, k + 8)]),
        ),
      );
      expect(leaks(outputs, windows)).toEqual([]);
    },
    LIMIT_MS,
  );
});

describe("a short secret hides in the evidence, never in the harness's own words", () => {
  for (const secret of ["wrong", "events", "e"]) {
    it(
      `contract with the secret '${secret}': ids, titles and rules are intact; the evidence has no '${secret}' of the target's`,
      async ({ tmpDir }) => {
        const { outputs } = await against(tmpDir, "contract", `said ${secret}`, secret);
        const results = JSON.parse(outputs.get("results.json") ?? "{}") as {
          checks: Array<{
            id: string;
            title: string;
            rule: string;
            evidence: Array<{ response?: { status: number; body?: string } }>;
          }>;
        };
        expect(results.checks.map((check) => check.id).sort()).toEqual(ONLY.split(",").sort());
        for (const check of results.checks) {
          expect(outputs.get("console (stdout)")).toContain(check.id);
          expect(outputs.get("junit.xml")).toContain(`${check.id}: ${check.title}`);
          expect(check.title).not.toContain("<CLIENT_SECRET>");
          expect(check.rule).not.toContain("<CLIENT_SECRET>");
          for (const item of check.evidence) {
            // Every refusal starts with the echo; the token's 200 is the target's JSON, where `e` is hidden too.
            if (item.response !== undefined && item.response.status !== 200)
              expect(item.response.body).toMatch(/^said <CLIENT_SECRET>/);
          }
        }
        for (const [file, text] of outputs) expect(text, file).not.toContain(`events.<CLIENT_SECRET>`);
      },
      LIMIT_MS,
    );
  }
});

/** Text a hostile target sends to take over a terminal or a CI log. */
const HOSTILE_TEXT = [
  "\u001b[2J\u001b[H", // clear the screen
  "\u001b]0;owned\u0007", // set the window title
  "\u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\", // an OSC 8 link
  "\u0000\u0007\u009b31m\u0085",
  "\r\n::error::forged annotation\r\n::add-mask::x\nPASS  token.issued\n",
  "\u2028\u2029\ufffe\uffff\ud800",
].join("");
/** Characters no output may carry raw: C0 and C1 controls except the line breaks and tabs an output writes itself. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching these characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/;

describe("text a target sends is inert in every output", () => {
  for (const command of ["contract", "run"] as const) {
    it(
      `${command}: escape sequences, NUL, BEL, CR/LF, workflow commands and U+FFFE reach no output raw`,
      async ({ tmpDir }) => {
        const { outputs } = await against(tmpDir, command, HOSTILE_TEXT);
        for (const [file, text] of outputs) {
          expect(CONTROLS.test(text), `${file} carries a control character`).toBe(false);
          expect(/\r/.test(text), `${file} carries a CR`).toBe(false);
          const lines = text.split("\n");
          expect(
            lines.filter((line) => /^\s*(::|PASS {2}token\.issued)/.test(line)),
            file,
          ).toEqual([]);
          if (file.endsWith(".xml")) expect(xmlProblems(text), file).toEqual([]);
        }
        const junit = [...outputs].filter(([file]) => file.endsWith("junit.xml"));
        expect(junit.length).toBeGreaterThan(0);
        // The target's words are still there, shown, not obeyed.
        const results = [...outputs].find(([file]) => file.endsWith("results.json"))?.[1] ?? "";
        expect(results).toContain("\\\\x1b[2J");
        expect(results).toContain("::error::forged annotation");
      },
      LIMIT_MS,
    );
  }
});
