import { describe, expect, it } from "vitest";
import { ENVIRONMENT_NAME } from "../../../cli/config/config-schema.ts";
import type { CheckResult, CheckStatus } from "../../../contracts/index.ts";
import type { Ledger, LedgerEntry, LedgerScope } from "../../../reporting/accepted/index.ts";
import {
  applyToChecks,
  applyToThresholds,
  describeOutcomes,
  LEDGER_ENVIRONMENT_NAME,
  parseLedger,
} from "../../../reporting/accepted/index.ts";

const TODAY = "2026-11-25";
const parse = (...accepted: object[]) => parseLedger(JSON.stringify({ accepted }), "accepted.json", TODAY);
const sliding = { id: "lifetime.sliding", reason: "Keycloak", ticket: "API-1", expires: "2027-01-31" };
const check = (id: string, status: CheckStatus): CheckResult => ({
  id,
  title: id,
  area: "lifetime",
  level: "MUST",
  rule: "Authentication rule 6",
  status,
  message: `${id} said so`,
  durationMs: 1,
  evidence: [],
});
const ledger = (scope: LedgerScope | undefined, ...entries: LedgerEntry[]): Ledger => ({
  file: "accepted.json",
  entries,
  today: TODAY,
  ...(scope === undefined ? {} : { scope }),
});
const staging: LedgerScope = {
  environment: "staging",
  target: { baseUrl: "https://api.staging.example.com" },
};
const production: LedgerScope = {
  environment: "production",
  target: { baseUrl: "https://api.example.com/v1" },
};

describe("an entry bound to an environment or a target", () => {
  it("is read with its binding", () => {
    const reading = parse({ ...sliding, environment: "staging", target: "https://api.staging.example.com/" });
    expect(reading.ok && reading.ledger.entries[0]).toEqual({
      ...sliding,
      environment: "staging",
      target: "https://api.staging.example.com/",
    });
  });

  it.each([
    [{ environment: "" }, /entry 1 \(lifetime\.sliding\): environment: /],
    [{ environment: "stag ing" }, /environment: .*the name of an environment of the config file/],
    [{ target: "api.staging.example.com" }, /target: the base URL of the API, http:\/\/ or https:\/\//],
    [{ target: "ftp://api.staging.example.com" }, /target: the base URL of the API, http:\/\/ or https:\/\//],
    [{ target: "https://user:pw@api.staging.example.com" }, /target: .*holds no credentials/],
  ])("refuses a binding that can match nothing: %o", (binding, message) => {
    const reading = parse({ ...sliding, ...binding });
    expect(reading.ok || reading.problem.message).toMatch(message);
  });

  it("names environments as the config file does", () => {
    expect(LEDGER_ENVIRONMENT_NAME.source).toBe(ENVIRONMENT_NAME.source);
  });

  it("may repeat an id only where no run can match both entries", () => {
    expect(parse({ ...sliding, environment: "staging" }, { ...sliding, environment: "production" }).ok).toBe(
      true,
    );
    expect(
      parse(
        { ...sliding, target: "https://api.staging.example.com" },
        { ...sliding, target: "https://api.example.com" },
      ).ok,
    ).toBe(true);
    for (const second of [
      { ...sliding },
      { ...sliding, environment: "staging" },
      { ...sliding, target: "https://x.example.com" },
    ]) {
      const reading = parse({ ...sliding, environment: "staging" }, second);
      expect(reading.ok || reading.problem.message).toBe(
        "accepted.json: entry 2 (lifetime.sliding): the id is accepted twice for the same run: bind each entry to a different environment or target",
      );
    }
    // The same target written two ways is the same target.
    const same = parse(
      { ...sliding, target: "https://API.staging.example.com/" },
      { ...sliding, target: "https://api.staging.example.com" },
    );
    expect(same.ok).toBe(false);
  });

  it("waives in the environment it was written for", () => {
    const { checks, outcomes } = applyToChecks(
      [check("lifetime.sliding", "FAIL")],
      ledger(staging, { ...sliding, environment: "staging" }),
    );
    expect(checks[0]?.status).toBe("WAIVED");
    expect(outcomes.map((o) => o.state)).toEqual(["waived"]);
  });

  it("does not apply in another environment, and the check and the ledger block say so", () => {
    const { checks, outcomes } = applyToChecks(
      [check("lifetime.sliding", "FAIL")],
      ledger(production, { ...sliding, environment: "staging" }),
    );
    expect(checks[0]).toMatchObject({ status: "FAIL", acceptance: { state: "not-applied" } });
    expect(checks[0]?.message).toBe(
      "lifetime.sliding said so [not waived: the ledger's entry is bound to environment 'staging', and this run's is 'production']",
    );
    expect(describeOutcomes(outcomes)).toEqual([
      "NOT APPLIED lifetime.sliding: bound to environment 'staging', and this run's is 'production'",
    ]);
  });

  it("does not apply to another base URL, nor to the embedded sandbox, nor where the command cannot tell", () => {
    const entry = { ...sliding, target: "https://API.staging.example.com/" };
    expect(applyToChecks([check("lifetime.sliding", "FAIL")], ledger(staging, entry)).checks[0]?.status).toBe(
      "WAIVED",
    );
    const cases: Array<[LedgerScope | undefined, string]> = [
      [production, "bound to target https://API.staging.example.com/, and this run tested another base URL"],
      [
        { environment: undefined, target: "embedded" },
        "bound to target https://API.staging.example.com/, and this run tested the embedded sandbox",
      ],
      [
        undefined,
        "bound to target https://API.staging.example.com/, and this command cannot tell which target the run tested",
      ],
    ];
    for (const [scope, detail] of cases) {
      const { checks, outcomes } = applyToChecks([check("lifetime.sliding", "FAIL")], ledger(scope, entry));
      expect(checks[0]?.status).toBe("FAIL");
      expect(outcomes).toMatchObject([{ state: "not-applied", detail }]);
    }
    // Without a config file, an entry bound to an environment applies nowhere.
    const noConfig = applyToChecks(
      [check("lifetime.sliding", "FAIL")],
      ledger({ environment: undefined, target: "embedded" }, { ...sliding, environment: "staging" }),
    );
    expect(noConfig.outcomes).toMatchObject([
      {
        state: "not-applied",
        detail: "bound to environment 'staging', and this run took no environment of a config file",
      },
    ]);
  });

  it("takes the entry of the run's own environment where each environment has its own", () => {
    const { checks, outcomes } = applyToChecks(
      [check("lifetime.sliding", "FAIL")],
      ledger(
        production,
        { ...sliding, environment: "staging", ticket: "API-1" },
        { ...sliding, environment: "production", ticket: "API-2" },
      ),
    );
    expect(checks[0]).toMatchObject({ status: "WAIVED", acceptance: { ticket: "API-2" } });
    expect(outcomes.map((o) => [o.entry.ticket, o.state])).toEqual([
      ["API-1", "not-applied"],
      ["API-2", "waived"],
    ]);
  });

  it("leaves a load gate failing where its entry does not apply", () => {
    const threshold = {
      metric: "token_expiries{kind:unexpected}",
      expression: "count==0",
      ok: false,
      observed: "count=4",
    };
    const gate = { ...sliding, id: "load.sliding-expiry", environment: "staging" };
    const elsewhere = applyToThresholds([threshold], ledger(production, gate));
    expect(elsewhere.failed).toEqual([threshold]);
    expect(elsewhere.outcomes.map((o) => o.state)).toEqual(["not-applied"]);
    expect(applyToThresholds([threshold], ledger(staging, gate)).waived).toEqual([threshold]);
  });
});
