import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Difference } from './compare';

/**
 * Where our document deliberately says more than the contract: a property the contract's open schema leaves
 * unnamed, or a bound we enforce that the contract does not state. `at` names the place as a difference does:
 * `<contract component> <path inside it>` (one entry then covers every operation using the component), or
 * `<operationId> <path inside the operation>` for what sits in no component (a query parameter). Each entry is
 * listed in docs/decisions.md.
 */
export interface Allowance {
  at: string;
  reason: string;
}

/** The names a difference answers to, as an allowance writes them. */
export function placesOf(d: Difference): string[] {
  return [`${d.operationId} ${d.path}`, ...(d.component ? [`${d.component.schema} ${d.component.pointer}`] : [])];
}

export const ALLOWANCES_FILE = path.join(__dirname, 'allowances.json');

export function readAllowances(file = ALLOWANCES_FILE): Allowance[] {
  return JSON.parse(readFileSync(file, 'utf8')) as Allowance[];
}

export interface AllowanceOutcome {
  /** Differences no allowance covers. */
  unexplained: Difference[];
  /** Allowances that covered nothing (stale: the document or the contract changed). */
  unused: Allowance[];
  /** Allowances that would cover a difference they may not: the contract states something else, or its schema is closed. */
  refused: Array<{ allowance: Allowance; difference: Difference }>;
}

/** An allowance may only excuse us saying more: the contract has nothing at that place, and its schema there is open. */
const mayExcuse = (d: Difference) => d.expected === undefined && d.actual !== undefined && !d.contractClosed;

export function applyAllowances(differences: Difference[], allowances: Allowance[]): AllowanceOutcome {
  const used = new Set<Allowance>();
  const outcome: AllowanceOutcome = { unexplained: [], unused: [], refused: [] };
  for (const difference of differences) {
    const places = placesOf(difference);
    const allowance = allowances.find((a) => places.includes(a.at));
    if (!allowance) outcome.unexplained.push(difference);
    else if (!mayExcuse(difference)) outcome.refused.push({ allowance, difference });
    else used.add(allowance);
  }
  outcome.unused = allowances.filter((a) => !used.has(a));
  return outcome;
}
