import { decodeProtectedHeader } from "jose";
import { request } from "undici";
import type { FaultName } from "../../sandbox/index.ts";
import { DEMO_CLIENT, FAULTS, isFaultName, startSandbox } from "../../sandbox/index.ts";
import { defineCommand } from "../cli/command.ts";
import { ExitCode } from "../cli/exit-codes.ts";
import { UsageError } from "../cli/usage-error.ts";

/** One valid checkout event, written here so the smoke flow depends on nothing but the sandbox. */
function smokeEvent(): Record<string, unknown> {
  return {
    type: "checkout",
    customer: { email: "ada.lovelace@example.com", firstName: "Ada" },
    channel: { id: "chl-7d3c9a52-1f4b-4e0a-8c6d-2b5e9f1a3c47", type: "user_defined" },
    transaction: { reference: `smoke-${Date.now().toString(36)}`, date: new Date().toISOString() },
    system: "event-api-harness",
    systemVersion: "0.1.0",
  };
}

/** What a token looks like, without showing any of it. */
function describeToken(token: string): string {
  try {
    const { alg, kid } = decodeProtectedHeader(token);
    return `${alg ?? "unknown-alg"} JWT${kid === undefined ? "" : " with kid"}, ${token.length} chars`;
  } catch {
    return `opaque string, ${token.length} chars`;
  }
}

/** An answer's body for a failure message: short, and never a token (only error bodies are shown). */
function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

export const runCommand = defineCommand({
  name: "run",
  summary: "Smoke flow: start the sandbox, get a token, post one event, read it back",
  usage: "run [options]",
  description: [
    "Starts the sandbox on a free port, obtains a token with the demo client (form post), posts one",
    "valid event, reads it back and reports each step. Exit 0 when every step answered as the API",
    "should, 1 when one did not, 3 when the flow could not run (e.g. a connection failed).",
    "Tokens are never printed, only their kind and length.",
  ].join("\n"),
  options: {
    fault: {
      type: "string",
      multiple: true,
      valueName: "NAME",
      description: "Start the sandbox with this fault, to watch the flow catch it.",
    },
  },
  examples: ["event-harness run", "npm start", "event-harness run --fault events-5xx"],
  async run({ options, io }) {
    const faults: FaultName[] = [];
    for (const name of options.fault ?? []) {
      if (!isFaultName(name)) {
        throw new UsageError(
          "invalid-value",
          `unknown fault '${name}'; valid faults: ${FAULTS.map((fault) => fault.name).join(", ")}`,
          "run",
        );
      }
      faults.push(name);
    }
    const out = (line: string): void => void io.stdout.write(`${line}\n`);
    const fail = (line: string): number => {
      io.stderr.write(`event-harness: smoke flow failed: ${line}\n`);
      return ExitCode.failed;
    };

    const sandbox = await startSandbox({ faults });
    try {
      out(`Sandbox started: auth URL ${sandbox.authUrl}, base URL ${sandbox.baseUrl}`);
      if (faults.length > 0) out(`Faults: ${faults.join(", ")}`);
      out(
        `Demo client: ${DEMO_CLIENT.clientId} / ${DEMO_CLIENT.clientSecret} (throwaway credential of the local sandbox)`,
      );

      const tokenResponse = await request(`${sandbox.authUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: DEMO_CLIENT.clientId,
          client_secret: DEMO_CLIENT.clientSecret,
          grant_type: "client_credentials",
          audience: sandbox.baseUrl,
        }).toString(),
      });
      const tokenText = await tokenResponse.body.text();
      if (tokenResponse.statusCode !== 200) {
        return fail(`the token endpoint answered ${tokenResponse.statusCode}: ${excerpt(tokenText)}`);
      }
      let grant: { access_token?: unknown; expires_in?: unknown };
      try {
        grant = JSON.parse(tokenText) as typeof grant;
      } catch {
        return fail("the token endpoint answered 200 but its body is not JSON");
      }
      if (typeof grant.access_token !== "string" || grant.access_token === "") {
        return fail("the token response has no access_token");
      }
      const token = grant.access_token;
      out(`Token: 200, ${describeToken(token)}, expires_in ${String(grant.expires_in)}`);

      const event = smokeEvent();
      const posted = await request(`${sandbox.baseUrl}/events`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(event),
      });
      const postedText = await posted.body.text();
      if (posted.statusCode !== 202) {
        return fail(`POST /events answered ${posted.statusCode}, expected 202: ${excerpt(postedText)}`);
      }
      const eventRef = (JSON.parse(postedText) as { EventRef?: unknown }).EventRef;
      if (typeof eventRef !== "string") return fail("the 202 answer carries no EventRef");
      out(`Event: 202 Accepted, EventRef ${eventRef}`);

      const read = await request(`${sandbox.baseUrl}/events/${encodeURIComponent(eventRef)}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const readText = await read.body.text();
      if (read.statusCode !== 200)
        return fail(`GET /events/${eventRef} answered ${read.statusCode}, expected 200`);
      const stored = JSON.parse(readText) as { transaction?: { reference?: unknown } };
      const reference = (event.transaction as { reference: string }).reference;
      if (stored.transaction?.reference !== reference)
        return fail("the event read back differs from the one posted");
      out(`Read back: 200, transaction.reference ${reference}`);
      out("Smoke flow passed: the accepted event was stored and read back.");
      return ExitCode.ok;
    } finally {
      await sandbox.close();
    }
  },
});
