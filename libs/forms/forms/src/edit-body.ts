import { FormsErrors } from '@forms/contracts';
import type { RevisionGuard } from './forms.service';

/** A free-form edit body (step or field properties) with the control members taken out and checked. */
export interface EditBody {
  guard: RevisionGuard;
  /** From `position` or its alias `index`. */
  position?: number;
  properties: Record<string, unknown>;
}

const CONTROL = new Set(['draft_revision', 'force', 'position', 'index']);

export function splitEditBody(body: unknown, { positioned }: { positioned: boolean }): EditBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw FormsErrors.invalid('validation_failed', 'The body must be a JSON object.', 'body');
  const raw = body as Record<string, unknown>;
  const guard: RevisionGuard = {};
  if (raw.draft_revision !== undefined) guard.draft_revision = nonNegativeInteger(raw.draft_revision, 'draft_revision');
  if (raw.force !== undefined) {
    if (typeof raw.force !== 'boolean') throw FormsErrors.invalid('validation_failed', 'force must be a boolean.', 'force');
    guard.force = raw.force;
  }
  let position: number | undefined;
  if (positioned) {
    if (raw.position !== undefined && raw.index !== undefined && raw.position !== raw.index) {
      throw FormsErrors.invalid('validation_failed', 'Send position or index, not both.', 'index');
    }
    const given = raw.position !== undefined ? 'position' : raw.index !== undefined ? 'index' : undefined;
    if (given) position = nonNegativeInteger(raw[given], given);
  }
  const properties = Object.fromEntries(Object.entries(raw).filter(([key]) => !CONTROL.has(key) || (!positioned && (key === 'position' || key === 'index'))));
  return { guard, position, properties };
}

/**
 * `draft_revision` / `force` of a DELETE, from its query string or its JSON body (where every other edit takes them);
 * anything else in either is refused, as are the two places disagreeing, so a guard sent is never a guard ignored.
 */
export function deleteGuard(query: Record<string, unknown>, body: unknown): RevisionGuard {
  const fromQuery = guardFromQuery(query);
  const fromBody = body === undefined ? { guard: {} as RevisionGuard, properties: {} } : splitEditBody(body, { positioned: false });
  for (const [place, names] of [
    ['query string', Object.keys(query)],
    ['body', Object.keys(fromBody.properties)],
  ] as const) {
    const unknown = names.find((name) => !GUARD_NAMES.includes(name as keyof RevisionGuard));
    if (unknown !== undefined)
      throw FormsErrors.invalid('validation_failed', `A delete takes only draft_revision and force; the ${place} has ${unknown}.`, unknown);
  }
  for (const name of GUARD_NAMES)
    if (fromQuery[name] !== undefined && fromBody.guard[name] !== undefined && fromQuery[name] !== fromBody.guard[name])
      throw FormsErrors.invalid('validation_failed', `${name} differs between the query string and the body.`, name);
  return { ...fromQuery, ...fromBody.guard };
}

const GUARD_NAMES: ReadonlyArray<keyof RevisionGuard> = ['draft_revision', 'force'];

function guardFromQuery(query: Record<string, unknown>): RevisionGuard {
  const guard: RevisionGuard = {};
  if (query.draft_revision !== undefined) {
    const raw = String(query.draft_revision);
    guard.draft_revision = nonNegativeInteger(/^\d{1,9}$/.test(raw) ? Number(raw) : NaN, 'draft_revision');
  }
  if (query.force !== undefined) {
    if (query.force !== 'true' && query.force !== 'false') throw FormsErrors.invalid('validation_failed', 'force must be true or false.', 'force');
    guard.force = query.force === 'true';
  }
  return guard;
}

function nonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw FormsErrors.invalid('validation_failed', `${field} must be a non-negative integer.`, field);
  return value;
}
