import { execFileSync } from "node:child_process";
import { Redactor } from "../../../contracts/index.ts";
import { curlCommand, evidenceOf } from "../../../contracts/probe/evidence.ts";
import type { HttpRequest, HttpResponse } from "../../../contracts/probe/http-request.ts";
import { describe, expect, it } from "../../support/fixtures.ts";

/** The words a POSIX shell makes of a command line: the shell itself is the oracle of the quoting. */
function shellWords(commandLine: string): string[] {
  const script = `set -- ${commandLine}; for word in "$@"; do printf '%s\\0' "$word"; done`;
  return execFileSync("sh", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
}

const SECRET = "s3cr3t-Value-9f8e7d";
const TOKEN = `eyJhbGciOiJFUzI1NiJ9.${"eyJzdWIiOiJzaG9wIn0".repeat(3)}.c2lnbmF0dXJl`;

function redactor(): Redactor {
  return new Redactor().add(SECRET, "<CLIENT_SECRET>").addToken(TOKEN, "<ACCESS_TOKEN>");
}

function response(overrides: Partial<HttpResponse> = {}): HttpResponse {
  return { status: 200, headers: {}, text: "", json: undefined, durationMs: 7, ...overrides };
}

const tokenRequest: HttpRequest = {
  method: "POST",
  url: "http://127.0.0.1:8080/auth/oauth/token",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: `grant_type=client_credentials&client_id=shop&client_secret=${SECRET}`,
};

describe("curlCommand", () => {
  it("gives a shell the method, URL, each header and the body as one word each", () => {
    const request: HttpRequest = {
      method: "POST",
      url: "http://127.0.0.1:8080/api/events?x=1&y=2",
      headers: { "content-type": "application/json", "x-note": "it's $HOME `id`" },
      body: `{"name":"O'Brien; rm -rf /","note":"$(id)"}`,
    };
    expect(shellWords(curlCommand(request))).toEqual([
      "curl",
      "-sS",
      "-i",
      "-X",
      "POST",
      "http://127.0.0.1:8080/api/events?x=1&y=2",
      "-H",
      "content-type: application/json",
      "-H",
      "x-note: it's $HOME `id`",
      "--data-raw",
      `{"name":"O'Brien; rm -rf /","note":"$(id)"}`,
    ]);
  });

  it("sends no body flag for a request without a body", () => {
    expect(shellWords(curlCommand({ method: "GET", url: "http://h/x", headers: {} }))).toEqual([
      "curl",
      "-sS",
      "-i",
      "-X",
      "GET",
      "http://h/x",
    ]);
  });
});

describe("evidenceOf", () => {
  it("hides the secret in the request body and in its curl line, and the token in the answer", () => {
    const evidence = evidenceOf(redactor(), "token request", tokenRequest, {
      response: response({
        headers: { "content-type": "application/json" },
        text: JSON.stringify({ access_token: TOKEN, token_type: "Bearer" }),
      }),
    });
    expect(evidence.label).toBe("token request");
    expect(new URLSearchParams(evidence.request.body).get("client_secret")).toBe("<CLIENT_SECRET>");
    expect(shellWords(evidence.curl).at(-1)).toBe(
      "grant_type=client_credentials&client_id=shop&client_secret=<CLIENT_SECRET>",
    );
    expect(JSON.parse(evidence.response?.body ?? "")).toEqual({
      access_token: "<ACCESS_TOKEN>",
      token_type: "Bearer",
    });
    expect(evidence.response).toMatchObject({ status: 200, durationMs: 7 });
    expect(JSON.stringify(evidence)).not.toContain(SECRET);
  });

  it("never shows Basic credentials, whatever they hold and however Basic is spelt", () => {
    const unknownClient = Buffer.from(`eah-unknown-client:${SECRET}`).toString("base64");
    const evidence = evidenceOf(
      redactor(),
      "basic",
      {
        method: "POST",
        url: "http://127.0.0.1:8080/auth/oauth/token",
        headers: { Authorization: `bAsIc ${unknownClient}`, "proxy-authorization": "Basic" },
        body: "grant_type=client_credentials",
      },
      { error: "connection refused" },
    );
    expect(evidence.request.headers).toEqual({
      Authorization: "Basic <BASIC_CREDENTIALS>",
      "proxy-authorization": "Basic <BASIC_CREDENTIALS>",
    });
    expect(evidence.curl).not.toContain(unknownClient);
    expect(evidence.error).toBe("connection refused");
    expect(evidence.response).toBeUndefined();
  });

  it("hides a Bearer token the redactor knows, and keeps a Location to where it points", () => {
    const evidence = evidenceOf(
      redactor(),
      "create",
      {
        method: "POST",
        url: "http://127.0.0.1:8080/api/events",
        headers: { authorization: `Bearer ${TOKEN}` },
        body: "{}",
      },
      {
        response: response({
          status: 302,
          headers: { location: "https://collector.example:8443/steal?token=abc" },
        }),
      },
    );
    expect(evidence.request.headers.authorization).toBe("Bearer <ACCESS_TOKEN>");
    expect(evidence.response?.headers.location).toBe("https://collector.example:8443 (path not shown)");
    expect(evidence.response).not.toHaveProperty("body");
    const elsewhere = evidenceOf(redactor(), "create", tokenRequest, {
      response: response({ status: 302, headers: { location: "javascript:alert(1)" } }),
    });
    expect(elsewhere.response?.headers.location).toBe("(not an http(s) URL) (path not shown)");
  });

  it("makes a target's control characters inert in headers and body", () => {
    const evidence = evidenceOf(redactor(), "hostile", tokenRequest, {
      response: response({
        status: 400,
        headers: { "x-\u001b[31mname": "value\u0007" },
        text: "\u001b]0;owned\u0007 ::error::forged",
      }),
    });
    const shown = JSON.stringify(evidence.response);
    expect(shown).not.toContain("\\u001b");
    expect(shown).not.toContain("\\u0007");
  });

  it("cuts a long body at 2,000 characters, saying how long it was", () => {
    const text = "a".repeat(5_000);
    const evidence = evidenceOf(redactor(), "long", tokenRequest, { response: response({ text }) });
    expect(evidence.response?.body).toBe(`${"a".repeat(2_000)}… (5000 chars)`);
    const exact = evidenceOf(redactor(), "exact", tokenRequest, {
      response: response({ text: "b".repeat(2_000) }),
    });
    expect(exact.response?.body).toBe("b".repeat(2_000));
  });
});
