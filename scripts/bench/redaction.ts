// What redaction costs: time per piece of evidence, memory per token, and a whole contract run against a target whose
// tokens are huge. Development only:
//   npm run bench:redaction -- [--part speed,memory,run] [--rounds 15] [--tokens 1,200,2000] [--sizes 0,4096,…]
//   speed: CPU µs per text of an evidence corpus (events, a token response, an HTML error page, headers, a 1 MiB
//     body quoted from its start) with a run's redactor and 1, 200 or 2,000 tokens of 4 KiB; the baseline replaces
//     the same secrets in the raw text only (inertText, then split and join: no decoding, no tokens). Also µs per
//     4 KiB token added, first 200 against the last 200 of 2,000.
//   memory: a fresh process per case (--expose-gc) registers N distinct random tokens of L characters; the heap and
//     array buffers it keeps after a full GC, less the same process before.
//   run: `contract --profile full --only inputs.token-form` (200 inputs) through a front of the sandbox that makes
//     every token L characters long; the CLI process's peak RSS and time, against the sandbox's own tokens.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createEventGenerator } from "../../generators/index.ts";
import { startSandbox } from "../../sandbox/index.ts";
import { startHugeTokenFront } from "../../test/support/huge-token-front.ts";
import { inertText, Redactor } from "../../transport/index.ts";

const CLI = fileURLToPath(new URL("../../bin/event-harness.js", import.meta.url));
const PEAK_RSS_HOOK = fileURLToPath(new URL("../../test/support/peak-rss-hook.mjs", import.meta.url));
const SELF = fileURLToPath(import.meta.url);

const { values } = parseArgs({
  options: {
    part: { type: "string", default: "speed,memory,run" },
    rounds: { type: "string", default: "15" },
    sizes: { type: "string", default: "0,4096,65536,1047552" },
    tokens: { type: "string", default: "1,200,2000" },
    "memory-case": { type: "string" },
  },
});
const rounds = Number(values.rounds);
const parts = new Set(values.part.split(","));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** `length` random base64url characters, a distinct token each call. */
function randomToken(length: number): string {
  let out = "";
  while (out.length < length)
    out += Buffer.from(crypto.getRandomValues(new Uint8Array(3 * 1024))).toString("base64url");
  return out.slice(0, length);
}

/** The baseline: the same secrets replaced in the raw text only (no decoding, no tokens), as split and join do. */
function plainReplace(text: string): string {
  const secrets = ["Sx9kP2qL7mZ4vR8tW3nB", "ak-9f2c-77ab-31de-0c4e"];
  const forms = [
    ...secrets,
    ...["release-check:Sx9kP2qL7mZ4vR8tW3nB", ...secrets].flatMap((value) => {
      const padded = Buffer.from(value).toString("base64");
      return [padded, padded.replace(/=+$/, ""), Buffer.from(value).toString("base64url")];
    }),
  ];
  let out = inertText(text);
  for (const form of forms) out = out.split(form).join("<SECRET>");
  return out;
}

/** A run's redactor: the client secret, HTTP Basic, a token parameter. */
function runRedactor(): Redactor {
  return new Redactor()
    .add("Sx9kP2qL7mZ4vR8tW3nB", "<CLIENT_SECRET>")
    .addBasic("release-check", "Sx9kP2qL7mZ4vR8tW3nB")
    .addTokenParams({ api_key: "ak-9f2c-77ab-31de-0c4e" });
}

// A child process of this script measures one memory case and prints its figures as JSON.
if (values["memory-case"] !== undefined) {
  const [count, length] = values["memory-case"].split("x").map(Number) as [number, number];
  const gc = (globalThis as { gc?: () => void }).gc as () => void;
  const held = () => {
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const redactor = runRedactor();
  const before = held();
  let refused = 0;
  let cpuMicros = 0;
  // Each token is made just before it is added, so what stays is what the redactor keeps (the tokens included);
  // only the adding is timed.
  for (let n = 0; n < count; n += 1) {
    const token = randomToken(length);
    const started = process.cpuUsage();
    if (redactor.tokenRefusal(token) === undefined) redactor.addToken(token, "<ACCESS_TOKEN>");
    else refused += 1;
    const used = process.cpuUsage(started);
    cpuMicros += used.user + used.system;
  }
  const kept = held() - before;
  console.log(JSON.stringify({ kept, refused, addMs: cpuMicros / 1000 }));
  process.exit(0);
}

console.log(
  `node /work/shared/tools/machine-speed.mjs: ${spawnSync(process.execPath, ["/work/shared/tools/machine-speed.mjs"], { encoding: "utf8" }).stdout.trim()}\n`,
);

if (parts.has("speed")) {
  const events = createEventGenerator({ seed: 7 })
    .take(200)
    .map((event) => JSON.stringify(event));
  const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: "release-check", scope: "profile email", aud: "https://api.example.com", iat: 1_700_000_000, exp: 1_700_000_300 })).toString("base64url")}.${randomToken(342)}`;
  const corpus = [
    ...events,
    JSON.stringify({ access_token: jwt, token_type: "Bearer", expires_in: 300, scope: "profile email" }),
    `<html><body>${"<p>Not Found: /api/events does not exist here. Request 5f0c9a7e-3b21-4d8c-9e1f.</p>".repeat(25)}</body></html>`,
    '{"error":"invalid_client","error_description":"Client authentication failed"}',
    "application/json; charset=utf-8",
    "https://api.example.com/events",
    "grant_type=client_credentials&client_id=release-check&client_secret=Sx9kP2qL7mZ4vR8tW3nB&audience=https%3A%2F%2Fapi.example.com",
  ];
  const megabyte = `{"items":[${'"abcdefghij",'.repeat(80_000)}"end"]}`;
  const cpuMicros = (work: () => void) => {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    return used.user + used.system;
  };
  const perText = (redact: (text: string) => unknown) =>
    cpuMicros(() => {
      for (const text of corpus) redact(text);
    }) / corpus.length;
  console.log("## Speed: CPU per text of the evidence corpus (median of rounds)\n");
  console.log(
    "| tokens registered (4 KiB each) | untrusted() | raw text only (baseline) | ratio | a 1 MiB body quoted (2,000 chars) |",
  );
  console.log("| --- | --- | --- | --- | --- |");
  for (const count of values.tokens.split(",").map(Number)) {
    const redactor = runRedactor();
    for (let n = 0; n < count; n += 1) redactor.addToken(randomToken(4096), "<ACCESS_TOKEN>");
    const redact: number[] = [];
    const inert: number[] = [];
    const big: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      // Interleaved, so a busy moment of the shared machine falls on both.
      redact.push(perText((text) => redactor.untrusted(text)));
      inert.push(perText(plainReplace));
      big.push(cpuMicros(() => redactor.untrustedPrefix(megabyte, 2_000)));
    }
    console.log(
      `| ${count.toLocaleString("en-US")} | ${median(redact).toFixed(1)} µs | ${median(inert).toFixed(1)} µs | ${(median(redact) / median(inert)).toFixed(1)}× | ${(median(big) / 1000).toFixed(2)} ms |`,
    );
  }
  const redactor = runRedactor();
  const tokens = Array.from({ length: 2_000 }, () => randomToken(4096));
  const addMicros = (from: number, to: number) =>
    cpuMicros(() => {
      for (let n = from; n < to; n += 1) redactor.addToken(tokens[n] as string, "<ACCESS_TOKEN>");
    }) /
    (to - from);
  const first = addMicros(0, 200);
  addMicros(200, 1_800);
  const last = addMicros(1_800, 2_000);
  console.log(
    `\nAdding a 4 KiB token: ${first.toFixed(0)} µs for each of the first 200, ${last.toFixed(0)} µs for each of tokens 1,801–2,000 (${(last / first).toFixed(2)}×)\n`,
  );
}

if (parts.has("memory")) {
  console.log(
    "## Memory: what the redactor keeps for N distinct tokens of L characters (fresh process each)\n",
  );
  console.log("| tokens | kept | per token character | refused | CPU to add them |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const memoryCase of ["200x4096", "2000x4096", "200x65536", "200x1047552"]) {
    const child = spawnSync(
      process.execPath,
      ["--expose-gc", "--import", "tsx", SELF, "--memory-case", memoryCase],
      {
        encoding: "utf8",
      },
    );
    const figures = JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "{}") as {
      kept: number;
      refused: number;
      addMs: number;
    };
    const [count, length] = memoryCase.split("x").map(Number) as [number, number];
    const indexed = (count - figures.refused) * length;
    console.log(
      `| ${count.toLocaleString("en-US")} × ${length.toLocaleString("en-US")} | ${mb(figures.kept)} | ${indexed === 0 ? "—" : `${(figures.kept / indexed).toFixed(2)} bytes`} | ${figures.refused} | ${figures.addMs.toFixed(0)} ms |`,
    );
  }
  console.log("");
}

if (parts.has("run")) {
  console.log(
    "## Run: contract --profile full --only inputs.token-form (200 inputs), tokens made L characters long\n",
  );
  console.log("| tokens | status | peak RSS | time | time against the sandbox's own tokens |");
  console.log("| --- | --- | --- | --- | --- |");
  const work = mkdtempSync(path.join(tmpdir(), "bench-redaction-"));
  const client = { clientId: "bench-client", clientSecret: "bench-secret-5e2a9c7d" };
  const sandbox = await startSandbox({ port: 0, clients: [client] });
  let ownMs = Number.NaN;
  try {
    for (const size of values.sizes.split(",").map(Number)) {
      // The sandbox's own tokens go through the front too (size 0 adds nothing), so only the size differs.
      const front = await startHugeTokenFront(new URL(sandbox.authUrl).origin, size);
      const at = (url: string) => front.url(url);
      const rssFile = path.join(work, "peak-rss");
      const reports = path.join(work, `run-${size}`);
      const started = performance.now();
      // Asynchronous: the sandbox and the front answer from this process while the CLI runs.
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            "--import",
            PEAK_RSS_HOOK,
            CLI,
            "contract",
            "--auth-url",
            at(sandbox.authUrl),
            "--base-url",
            at(sandbox.baseUrl),
            "--audience",
            sandbox.baseUrl,
            "--client-id",
            client.clientId,
            "--profile",
            "full",
            "--only",
            "inputs.token-form",
            "--report-dir",
            reports,
          ],
          {
            stdio: "ignore",
            env: { ...process.env, EAH_PEAK_RSS_FILE: rssFile, EVENT_API_CLIENT_SECRET: client.clientSecret },
          },
        );
        child.on("error", reject);
        child.on("close", resolve);
      });
      const ms = performance.now() - started;
      if (size === 0) ownMs = ms;
      const peak = Number(readFileSync(rssFile, "utf8")) * 1024;
      const result = JSON.parse(readFileSync(path.join(reports, "results.json"), "utf8")) as {
        checks: Array<{ status: string; message: string }>;
      };
      const check = result.checks[0];
      const said = check === undefined ? `exit ${code}` : `${check.status}: ${check.message.slice(0, 110)}`;
      console.log(
        `| ${size === 0 ? "the sandbox's own (about 800)" : size.toLocaleString("en-US")} | ${said} | ${mb(peak)} | ${(ms / 1000).toFixed(1)} s | ${(ms / ownMs).toFixed(2)}× |`,
      );
      await front.close();
    }
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
}
