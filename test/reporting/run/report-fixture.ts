import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { CheckResult, Evidence } from "../../../contracts/index.ts";
import type { PartOutcome, RunOutcome } from "../../../reporting/run/index.ts";
import { aggregateK6Csv } from "../../../reporting/run/index.ts";

/** Text a hostile target might answer with: it must reach the page as text, never as markup. */
export const INJECTION = `</pre><script>window.pwned=1</script><img src=x onerror="window.pwned=2">"'&`;

/** A small deterministic random source, so the fixture draws the same charts every time. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function exchange(label: string, status: number | undefined, body: string): Evidence {
  return {
    label,
    request: {
      method: "POST",
      url: "http://127.0.0.1:8080/api/events",
      headers: { authorization: "Bearer <ACCESS_TOKEN>", "content-type": "application/json" },
      body: '{"type":"checkout","customer":{"email":"ada@example.com"}}',
    },
    ...(status === undefined
      ? { error: "ECONNRESET" }
      : {
          response: {
            status,
            headers: { "content-type": "application/json", "cache-control": "no-store" },
            body,
            durationMs: 12.4,
          },
        }),
    curl: "curl -sS -X POST 'http://127.0.0.1:8080/api/events' -H 'Authorization: Bearer <ACCESS_TOKEN>' --data-raw '{…}'",
  };
}

function check(
  id: string,
  status: CheckResult["status"],
  message: string,
  evidence: Evidence[] = [exchange("create an event", 202, '{"EventRef":"evt-1"}')],
): CheckResult {
  const area = id.split(".")[0] as CheckResult["area"];
  return {
    id,
    title: `The ${id} rule holds`,
    area,
    level: status === "WARN" ? "SHOULD" : "MUST",
    rule: "Authentication rule 3",
    status,
    message,
    durationMs: 42,
    evidence,
  };
}

export const CONTRACT_CHECKS: readonly CheckResult[] = [
  check("token.issued", "PASS", "200 with an access token"),
  check("token.no-store", "WARN", "Cache-Control missing"),
  check("bearer.missing", "PASS", "rejected with 401"),
  check("bearer.garbage", "FAIL", `expected 401, received 500 ${INJECTION}`, [
    exchange("garbage token", 500, `{"Message":"${INJECTION}"}`),
  ]),
  check("events.accepted", "PASS", "202, event reference evt-1"),
  check("events.stored", "ERROR", "could not decide: ECONNRESET", [exchange("read back", undefined, "")]),
  check("lifetime.sliding", "PASS", "used 7 times over 7.0 s (expires_in 5 s), never rejected"),
];

const ROTATION_CHECKS: readonly CheckResult[] = [
  check("rotation.new-secret", "PASS", "token issued (200) and event accepted (202)"),
  check("rotation.old-secret", "PASS", "the old secret is refused: 401 invalid_client"),
  check("rotation.old-tokens", "PASS", "the earlier token is valid (202)"),
];

/**
 * k6 CSV samples of a 30 s run at about 20 events/s, with refreshes, idle expiries, one violation and one failed
 * token request (k6 writes a `status` tag to its own column, other tags to extra_tags).
 */
export function syntheticK6Csv(startSeconds = 1_800_000_000, seconds = 30): string {
  const random = seeded(7);
  const rows = [
    "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,scenario,service,status,subproto,tls_version,url,extra_tags,metadata",
  ];
  const row = (metric: string, t: number, value: number, extra = "", status = "") =>
    rows.push(`${metric},${t},${value.toFixed(6)},,,,,,,,,sustained,,${status},,,,${extra},`);
  for (let s = 0; s < seconds; s += 1) {
    const t = startSeconds + s;
    row("vus", t, 5);
    const events = 18 + Math.floor(random() * 5);
    for (let i = 0; i < events; i += 1) {
      const failed = s === 21 && i < 3;
      const latency = 3 + random() * 4 + (s > 12 && s < 16 ? 25 * random() : 0);
      row("http_reqs", t, 1, "endpoint=events");
      row("http_req_duration", t, latency, "endpoint=events");
      row("events_failed", t, failed ? 1 : 0);
      if (failed) row("events_rejected", t, 1, "", "503");
    }
    if (s % 5 === 0) {
      row("http_reqs", t, 1, "endpoint=token");
      row("http_req_duration", t, 8 + random() * 3, "endpoint=token");
      row("token_requests", t, 1, `reason=${s === 0 ? "initial" : "lifetime"}&outcome=issued`);
    }
    if (s === 9 || s === 24) {
      row("token_expiries", t, 1, "kind=idle");
      row("token_requests", t, 1, "reason=idle&outcome=issued");
    }
    if (s === 21) row("token_requests", t, 1, "reason=rejected&outcome=failed", "503");
    if (s === 17) row("token_expiries", t, 1, "kind=unexpected");
  }
  return `${rows.join("\n")}\n`;
}

async function* linesOf(text: string): AsyncGenerator<string> {
  for (const line of text.split("\n")) if (line !== "") yield line;
}

function loadSummary(): unknown {
  return {
    state: { testRunDurationMs: 30_000 },
    metrics: {
      events_failed: {
        type: "rate",
        contains: "default",
        values: { rate: 0.005, passes: 3, fails: 597 },
        thresholds: { "rate<0.01": { ok: true } },
      },
      "http_req_duration{endpoint:events}": {
        type: "trend",
        contains: "time",
        values: { avg: 6, med: 5, "p(90)": 9, "p(95)": 14.5, "p(99)": 26, max: 31 },
        thresholds: { "p(95)<500": { ok: true }, "count>=0": { ok: true } },
      },
      token_requests: { type: "counter", contains: "default", values: { count: 9 } },
      "token_requests{reason:lifetime,outcome:issued}": {
        type: "counter",
        contains: "default",
        values: { count: 5 },
        thresholds: { "count>=0": { ok: true } },
      },
      "token_requests{reason:idle,outcome:issued}": {
        type: "counter",
        contains: "default",
        values: { count: 2 },
        thresholds: { "count>=0": { ok: true } },
      },
      "token_requests{outcome:failed}": {
        type: "counter",
        contains: "default",
        values: { count: 1 },
        thresholds: { "count>=0": { ok: true } },
      },
      "token_expiries{kind:idle}": { type: "counter", contains: "default", values: { count: 2 } },
      "token_expiries{kind:unexpected}": {
        type: "counter",
        contains: "default",
        values: { count: 1 },
        thresholds: { "count==0": { ok: false } },
      },
      "token_expiries{kind:outlived}": {
        type: "counter",
        contains: "default",
        values: { count: 0 },
        thresholds: { "count==0": { ok: true } },
      },
    },
    harness: {
      context: {
        scenario: "sustained",
        rate: 20,
        vus: 5,
        durationSeconds: 30,
        expiresInSeconds: 5,
        clientModel: "sliding",
      },
      verdict: {
        level: "broken",
        reasons: [
          `1 token(s) were rejected (401) although last used less than expires_in − 0.5s ago ${INJECTION}`,
        ],
      },
    },
  };
}

function outcome(
  id: string,
  kind: PartOutcome["kind"],
  title: string,
  verdict: PartOutcome["verdict"],
): PartOutcome {
  return {
    id,
    kind,
    title,
    command: `npx event-harness ${kind} --report-dir reports/x/${id}`,
    verdict,
    exitCode: verdict === "passed" ? 0 : verdict === "failed" ? 1 : 3,
    startedAt: "2027-01-15T08:00:00.000Z",
    durationMs: 9_800,
  };
}

/** Writes the part files of a made-up run (contract failed, load broken, rotation passed) into `runDir`. */
export async function writeFixtureRun(runDir: string): Promise<RunOutcome> {
  const write = async (file: string, data: unknown) => {
    await mkdir(path.dirname(path.join(runDir, file)), { recursive: true });
    await writeFile(
      path.join(runDir, file),
      typeof data === "string" ? data : `${JSON.stringify(data, null, 2)}\n`,
    );
  };
  await write("contract/results.json", {
    suite: "contract (full)",
    durationMs: 9_800,
    seed: 1,
    checks: CONTRACT_CHECKS,
  });
  await write("contract/summary.md", "## ❌ Contract broken — 1 FAIL\n\n### Bearer requirement\n");
  await write("contract/junit.xml", "<testsuites/>\n");
  await write("load-sustained/summary.json", loadSummary());
  await write("load-sustained/timeseries.json", await aggregateK6Csv(linesOf(syntheticK6Csv())));
  await write("load-sustained/dashboard.html", "<!doctype html><title>k6 dashboard</title>\n");
  await write("load-sustained/junit.xml", "<testsuites/>\n");
  await write("rotation/results.json", {
    suite: "verify-rotation",
    durationMs: 120,
    seed: 2,
    checks: ROTATION_CHECKS,
  });
  return {
    tool: { name: "event-api-harness", version: "0.1.0" },
    runId: "20270115T080000Z-abcd",
    startedAt: "2027-01-15T08:00:00.000Z",
    durationMs: 61_000,
    verdict: "failed",
    target: { embedded: true },
    parts: [
      outcome("contract", "contract", "Contract suite (full profile)", "failed"),
      outcome("load-sustained", "load", "Load: sustained (30s)", "failed"),
      {
        ...outcome("load-idle-gap", "load", "Load: idle-gap", "undecided"),
        note: "could not run: k6 is missing",
      },
      outcome("rotation", "rotation", "Credential rotation", "passed"),
    ],
  };
}
