/** One check as a contract run's results.json records it. */
export interface ContractCheckRecord {
  readonly id: string;
  readonly status: string;
  readonly level?: string;
}

export interface ContractCheckChange {
  readonly id: string;
  readonly baseline: string | undefined;
  readonly candidate: string | undefined;
}

/** Per check, what changed between two contract runs. */
export interface ContractComparison {
  /** FAIL now, anything else (or absent) before: these fail the comparison. */
  readonly newlyFailing: readonly ContractCheckChange[];
  /** FAIL before, PASS now. */
  readonly fixed: readonly ContractCheckChange[];
  /** Every other change of status (ERROR, SKIP, WARN…), and checks that ran on one side only. */
  readonly otherChanges: readonly ContractCheckChange[];
  readonly unchanged: number;
}

/** Compares two contract runs check by check; a check absent on a side is `undefined` there, never a pass. */
export function compareContract(
  base: readonly ContractCheckRecord[],
  candidate: readonly ContractCheckRecord[],
): ContractComparison {
  const before = new Map(base.map((c) => [c.id, c.status]));
  const after = new Map(candidate.map((c) => [c.id, c.status]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  const newlyFailing: ContractCheckChange[] = [];
  const fixed: ContractCheckChange[] = [];
  const otherChanges: ContractCheckChange[] = [];
  let unchanged = 0;
  for (const id of ids) {
    const change = { id, baseline: before.get(id), candidate: after.get(id) };
    if (change.baseline === change.candidate) unchanged += 1;
    else if (change.candidate === "FAIL") newlyFailing.push(change);
    else if (change.baseline === "FAIL" && change.candidate === "PASS") fixed.push(change);
    else otherChanges.push(change);
  }
  return { newlyFailing, fixed, otherChanges, unchanged };
}
