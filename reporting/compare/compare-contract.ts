/** One check as a contract run's results.json records it. */
export interface ContractCheckRecord {
  readonly id: string;
  readonly status: string;
  readonly level?: string;
}

/** What a contract run was: its profile, client and target as results.json records them (untrusted text). */
export interface ContractRunRecord {
  readonly profile?: string;
  readonly clientId?: string;
  readonly baseUrl?: string;
  readonly embedded?: boolean;
  readonly checks: readonly ContractCheckRecord[];
}

export interface ContractCheckChange {
  readonly id: string;
  readonly baseline: string | undefined;
  readonly candidate: string | undefined;
}

/** Per check, what changed between two contract runs. */
export interface ContractComparison {
  /** What differs between the runs themselves: `profile fast → full`, `client a → b`, `target X → Y`. */
  readonly differences: readonly string[];
  /** Run on both sides, FAIL now and not before: these fail the comparison. */
  readonly newlyFailing: readonly ContractCheckChange[];
  /** FAIL before, PASS now. */
  readonly fixed: readonly ContractCheckChange[];
  /** Absent from the baseline (another profile, a newer harness): a first result, not a change. */
  readonly newlyRun: readonly ContractCheckChange[];
  /** Run in the baseline only. */
  readonly noLongerRun: readonly ContractCheckChange[];
  /** Every other change of status (ERROR, SKIP, WARN…). */
  readonly otherChanges: readonly ContractCheckChange[];
  readonly unchanged: number;
}

/** The differences between two runs that explain checks run on one side only or judged another way. */
function runDifferences(base: ContractRunRecord, candidate: ContractRunRecord): string[] {
  const out: string[] = [];
  const differ = (name: string, a: string | undefined, b: string | undefined) => {
    if (a !== b) out.push(`${name} ${a ?? "unknown"} → ${b ?? "unknown"}`);
  };
  differ("profile", base.profile, candidate.profile);
  differ("client", base.clientId, candidate.clientId);
  // The embedded sandbox listens on another port every run: only a named target's URL says where a run went.
  if (base.embedded === true && candidate.embedded === true) return out;
  const where = (run: ContractRunRecord) => (run.embedded === true ? "the embedded sandbox" : run.baseUrl);
  differ("target", where(base), where(candidate));
  return out;
}

/** Compares two contract runs check by check; a check absent on a side is `undefined` there, never a pass. */
export function compareContract(base: ContractRunRecord, candidate: ContractRunRecord): ContractComparison {
  const before = new Map(base.checks.map((c) => [c.id, c.status]));
  const after = new Map(candidate.checks.map((c) => [c.id, c.status]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const newlyFailing: ContractCheckChange[] = [];
  const fixed: ContractCheckChange[] = [];
  const newlyRun: ContractCheckChange[] = [];
  const noLongerRun: ContractCheckChange[] = [];
  const otherChanges: ContractCheckChange[] = [];
  let unchanged = 0;
  for (const id of ids) {
    const change = { id, baseline: before.get(id), candidate: after.get(id) };
    if (change.baseline === undefined) newlyRun.push(change);
    else if (change.candidate === undefined) noLongerRun.push(change);
    else if (change.baseline === change.candidate) unchanged += 1;
    else if (change.candidate === "FAIL") newlyFailing.push(change);
    else if (change.baseline === "FAIL" && change.candidate === "PASS") fixed.push(change);
    else otherChanges.push(change);
  }
  return {
    differences: runDifferences(base, candidate),
    newlyFailing,
    fixed,
    newlyRun,
    noLongerRun,
    otherChanges,
    unchanged,
  };
}
