// Schemathesis against the same sandbox faults as the harness's input stage, when Schemathesis is installed:
//   npm run bench:schemathesis -- [--st /path/to/st] [--faults a,b] [--max-examples 100] [--seed 1] [--st-only | --harness-only]
// For each fault (and the correct sandbox), it starts the embedded sandbox, writes our own OpenAPI export for it
// (`event-harness openapi`), gives Schemathesis a bearer token from the sandbox's token endpoint as a header (the
// events endpoint needs one; Schemathesis does not run the client-credentials grant itself), and runs it on POST
// /events, then on the token endpoint; it prints a Markdown table of what Schemathesis reported beside what the
// harness's full profile (`contract --only inputs,events`) fails, seed 1. Nothing of Schemathesis is part of the
// harness: install it outside the repository, e.g. python3 -m venv /tmp/st-venv && /tmp/st-venv/bin/pip install
// schemathesis==4.9.5.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { runContract } from "../../cli/contract/run-contract.ts";
import { DIRECT, FUZZ_DEFAULTS } from "../../contracts/index.ts";
import { buildOpenApiDocument } from "../../domain/openapi/index.ts";
import type { FaultName } from "../../sandbox/index.ts";
import { startSandbox } from "../../sandbox/index.ts";

const { values } = parseArgs({
  options: {
    st: { type: "string", default: "/tmp/st-venv/bin/st" },
    faults: { type: "string" },
    "max-examples": { type: "string", default: "100" },
    seed: { type: "string", default: "1" },
    /** Skip the harness's own run per fault (its figures are bench:fuzz's). */
    "st-only": { type: "boolean", default: false },
    /** Skip Schemathesis (its column is the slow one: 1 to 4 minutes a fault). */
    "harness-only": { type: "boolean", default: false },
    /** Keep each Schemathesis output here, one file per fault and endpoint. */
    "out-dir": { type: "string" },
  },
});

/** The input-handling faults of the sandbox, each a bug class of the input stage (docs/reference/sandbox.md). */
const INPUT_FAULTS: readonly FaultName[] = [
  "events-5xx-email-local-part",
  "events-5xx-long-reference",
  "events-5xx-quote-reference",
  "events-5xx-emoji-system",
  "events-5xx-unknown-property",
  "events-5xx-null-field",
  "events-5xx-huge-integer",
  "events-5xx-deep-nesting",
  "events-lenient-dates",
  "events-numbers-as-strings",
  "events-5xx-long-email",
  "events-5xx-idn-email",
  "events-email-shape-unchecked",
  "events-5xx-long-system-version",
  "events-5xx-non-ascii-type",
  "events-leap-every-fourth-year",
  "events-channel-prefix-unchecked",
  "events-array-body-accepted",
  "events-5xx-utf16-body",
  "events-strict-content-type",
  "events-5xx-bearer-lowercase",
  "events-5xx-escaped-surrogates",
  "token-repeated-params-accepted",
  "token-empty-param-5xx",
  "token-basic-5xx-unknown-param",
  "token-secret-case-insensitive",
  "token-5xx-missing-param",
  "token-5xx-long-value",
];

const faults = values.faults === undefined ? INPUT_FAULTS : (values.faults.split(",") as FaultName[]);

/** Runs Schemathesis once; what its summary says it found ("" when it found nothing). */
function schemathesis(args: readonly string[]): Promise<{ readonly found: string; readonly output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(values.st, args, {
      // Hypothesis keeps its example database in the working directory: the bench's own, never the repository.
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", () => {
      // Its summary names each failing check on a line of its own under "Failures" (or as "N failures").
      const failures = [...output.matchAll(/^\s*[❌✗×]\s+(.+?):\s+(\d+)/gmu)].map((m) => `${m[1]} (${m[2]})`);
      const summary = /=+ (.*(?:issues? found|failures?|errors?).*?) in [0-9.]+s =+/.exec(output)?.[1] ?? "";
      resolve({
        found: failures.length > 0 ? failures.join(", ") : /No issues found/.test(summary) ? "" : summary,
        output,
      });
    });
  });
}

async function harness(fault: FaultName | undefined, seed: number): Promise<string> {
  const sandbox = await startSandbox({ port: 0, expiresIn: 300, faults: fault === undefined ? [] : [fault] });
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("no client");
  try {
    const results = await runContract({
      target: {
        tokenUrl: sandbox.tokenUrl,
        baseUrl: sandbox.baseUrl,
        clientId: client.clientId,
        clientSecret: client.clientSecret,
        audience: sandbox.baseUrl,
        clientAuth: "post",
        connection: DIRECT,
        timeoutMs: 10_000,
        embedded: true,
      },
      profile: "full",
      only: ["inputs", "events"],
      seed,
      runId: `st-${seed}-${Date.now().toString(36)}`,
      fuzz: { ...FUZZ_DEFAULTS.full },
    });
    return results
      .filter((result) => result.status === "FAIL" || result.status === "WARN")
      .map((result) => `${result.id} ${result.status}`)
      .join(", ");
  } finally {
    await sandbox.close();
  }
}

async function against(fault: FaultName | undefined, dir: string): Promise<string> {
  const sandbox = await startSandbox({
    port: 0,
    expiresIn: 3600,
    faults: fault === undefined ? [] : [fault],
  });
  const client = sandbox.clients[0];
  if (client === undefined) throw new Error("no client");
  try {
    const spec = join(dir, "openapi.json");
    await writeFile(
      spec,
      JSON.stringify(buildOpenApiDocument({ authUrl: sandbox.authUrl, baseUrl: sandbox.baseUrl })),
    );
    const answer = await fetch(sandbox.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      }),
    });
    const token = ((await answer.json()) as { access_token: string }).access_token;
    // A loaded machine makes Hypothesis's health checks fail the run before it tests anything: they are off.
    const common = [
      "--seed",
      values.seed,
      "--max-examples",
      values["max-examples"],
      "--checks",
      "all",
      "--suppress-health-check",
      "all",
    ];
    // An events fault is met at POST /events, a token fault at the token endpoint; the correct sandbox at both.
    const atEvents = fault === undefined || !fault.startsWith("token-");
    const atToken = fault === undefined || fault.startsWith("token-");
    const none = { found: "", output: "" };
    const events = !atEvents
      ? none
      : await schemathesis([
          "run",
          spec,
          "--url",
          sandbox.baseUrl,
          "--include-path",
          "/events",
          "-H",
          `Authorization: Bearer ${token}`,
          ...common,
        ]);
    const tokens = !atToken
      ? none
      : await schemathesis([
          "run",
          spec,
          "--url",
          sandbox.authUrl,
          "--include-path",
          "/oauth/token",
          ...common,
        ]);
    if (values["out-dir"] !== undefined) {
      const name = fault ?? "none";
      await writeFile(join(values["out-dir"], `${name}.events.txt`), events.output);
      await writeFile(join(values["out-dir"], `${name}.token.txt`), tokens.output);
    }
    return [events.found && `events: ${events.found}`, tokens.found && `token: ${tokens.found}`]
      .filter(Boolean)
      .join("; ");
  } finally {
    await sandbox.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), "eah-schemathesis-"));
try {
  console.log(
    `## Schemathesis (${values.st}, --max-examples ${values["max-examples"]}, seed ${values.seed}) and the harness (full profile, seed ${values.seed})\n`,
  );
  console.log("| sandbox fault | Schemathesis reports | the harness fails or warns |");
  console.log("|---|---|---|");
  for (const fault of [undefined, ...faults]) {
    const st = values["harness-only"] ? "(not run)" : await against(fault, dir);
    const ours = values["st-only"] ? "(not run)" : await harness(fault, Number(values.seed));
    console.log(
      `| ${fault === undefined ? "none (the correct sandbox)" : `\`${fault}\``} | ${st || "nothing"} | ${ours || "nothing"} |`,
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
