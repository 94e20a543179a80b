import { contractCommand } from "../../../cli/commands/contract.ts";
import { decodedHits } from "../../support/decoded-oracle.ts";
import { ECHO_TOKEN, startEchoServer } from "../../support/echo-server.ts";
import { describe, expect, it } from "../../support/fixtures.ts";
import { filesUnder } from "../../support/report-texts.ts";
import { runInProcess } from "../../support/run-in-process.ts";

const CLIENT_ID = "echo-client";
/** Characters a form encodes (quote, backslash, slash, space, +, %, non-ASCII), so each layer changes it. */
const SECRET = 'q7"R\\v/é +%Zx-long-enough';
const PARAM = "ak_Vq83/+=kZ é-9f2c";
/** The token requests with the real secret, a wrong one and an unknown client, and an event sent with the token. */
const ONLY = "token.issued,token.wrong-secret-refused,token.unknown-client-refused,events.wrong-content-type";

/**
 * How a server writes back what it got, in encodings no echo test covered before (the redactor's own tests cover
 * more: capitals, base64url, `\xHH`, other nestings).
 */
const ENCODINGS: Readonly<Record<string, (sent: string) => string>> = {
  "percent-encoded twice": (sent) => encodeURIComponent(encodeURIComponent(sent)),
  "percent-encoded three times": (sent) => encodeURIComponent(encodeURIComponent(encodeURIComponent(sent))),
  "hex-encoded": (sent) => Buffer.from(sent).toString("hex"),
  "base64 after one byte": (sent) => Buffer.from(`>${sent}`).toString("base64"),
  "base64 after two bytes": (sent) => Buffer.from(`>>${sent}`).toString("base64"),
  "hex of base64": (sent) => Buffer.from(Buffer.from(`>${sent}`).toString("base64")).toString("hex"),
};

const formOf = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
/** The secret and the token parameter as they are and as the form carries them; 8 characters of the token. */
const NEEDLES = [
  SECRET,
  formOf(SECRET),
  PARAM,
  formOf(PARAM),
  ...Array.from({ length: ECHO_TOKEN.length - 7 }, (_, k) => ECHO_TOKEN.slice(k, k + 8)),
];

/** With Basic, the form holds no secret: the Authorization header echoed is what is looked for. */
const CASES = [
  ...Object.keys(ENCODINGS).map((name) => ["post", name] as const),
  ...["hex-encoded", "base64 after two bytes"].map((name) => ["basic", name] as const),
];

describe("a target echoing the token form in other encodings", () => {
  for (const [clientAuth, name] of CASES) {
    const encode = ENCODINGS[name] as (sent: string) => string;
    it(`--client-auth ${clientAuth}, the echo ${name}: no secret, token parameter or token in any output`, async ({
      tmpDir,
    }) => {
      const server = await startEchoServer({
        clientId: CLIENT_ID,
        secret: SECRET,
        echo: "echo",
        encodeEcho: encode,
      });
      try {
        const run = await runInProcess(
          contractCommand,
          [
            "--auth-url",
            `${server.url}/auth`,
            "--base-url",
            `${server.url}/api`,
            "--client-id",
            CLIENT_ID,
            "--client-auth",
            clientAuth,
            "--token-param",
            `api_key=${PARAM}`,
            "--only",
            ONLY,
            "--timeout",
            "5",
            "--report-dir",
            tmpDir,
          ],
          { EVENT_API_CLIENT_SECRET: SECRET },
        );
        const outputs = await filesUnder(tmpDir);
        outputs.set("stdout", run.stdout);
        outputs.set("stderr", run.stderr);
        expect([...outputs.keys()]).toContain("results.json");
        // The echo reached the evidence: the run judged what the target said.
        expect(outputs.get("results.json")).toContain("echo");
        const leaks = [...outputs].flatMap(([file, text]) =>
          decodedHits(text, NEEDLES).map((chain) => `${chain} in ${file}`),
        );
        expect(leaks).toEqual([]);
      } finally {
        await server.close();
      }
    });
  }
});
