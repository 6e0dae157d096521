import type { z } from 'zod';
import { checkForm } from './check-form';
import { checkQuiz } from './check-quiz';
import { checkWorkflow } from './check-workflow';
import { indexForm } from './form-index';
import { rawIssue, sortByDocument, toDraftIssue, type DraftResult, type IdSource, type RawIssue } from './issues';
import type { DraftSchema, Quiz } from './model';
import { quizWithIds, settingsWithIds, stepsWithIds, workflowWithIds } from './normalize';
import { isRecord } from './object';
import { draftSections } from './schemas/draft';
import { fromZodIssues } from './zod-issues';

const SECTIONS = Object.keys(draftSections);

export type RawDraftResult = { ok: true; value: DraftSchema } | { ok: false; issues: RawIssue[] };

/**
 * Validates and normalizes a draft schema (see `parseDraftSchema`), with issue paths still as segments
 * so edit operations can re-base them onto their request bodies.
 */
export function parseDraft(input: unknown, ids: IdSource): RawDraftResult {
  if (!isRecord(input)) return { ok: false, issues: [rawIssue([], 'invalid_type', 'The draft schema must be an object.')] };
  const issues: RawIssue[] = Object.keys(input)
    .filter((key) => !SECTIONS.includes(key))
    .map((key) => rawIssue([key], 'unknown_property', `Unknown property "${key}".`));

  // Sections are parsed separately so one broken section does not hide the issues of the others.
  const section = <S extends z.ZodType>(key: string, schema: S): z.output<S> | undefined => {
    const result = schema.safeParse(input[key]);
    if (result.success) return result.data;
    issues.push(...fromZodIssues(result.error.issues, input[key], [key]));
    return undefined;
  };
  const version = section('version', draftSections.version);
  const steps = mapDefined(section('steps', draftSections.steps), (s) => stepsWithIds(s, ids));
  const settings = mapDefined(section('settings', draftSections.settings), (s) => settingsWithIds(s, ids));
  const theme = section('theme', draftSections.theme);
  const workflow = mapDefined(section('workflow', draftSections.workflow), (w) => workflowWithIds(w, ids));
  const hasQuiz = input.quiz !== undefined && input.quiz !== null;
  const quiz: Quiz | undefined = hasQuiz ? mapDefined(section('quiz', draftSections.quiz), (q) => quizWithIds(q, ids)) : undefined;

  // Reference checks need the sections they read; each runs when those parsed.
  if (steps && settings && (quiz || !hasQuiz)) {
    const index = indexForm(steps, settings, quiz);
    issues.push(...checkForm(steps, settings, index));
    if (workflow) issues.push(...checkWorkflow(workflow, index));
    if (quiz) issues.push(...checkQuiz(quiz, index));
  }
  if (issues.length > 0 || !version || !steps || !settings || !theme || !workflow) {
    return { ok: false, issues: sortByDocument(issues, input) };
  }
  return { ok: true, value: { version, steps, settings, theme, workflow, ...(quiz && { quiz }) } };
}

const mapDefined = <T, U>(value: T | undefined, map: (value: T) => U): U | undefined => (value === undefined ? undefined : map(value));

/**
 * Parses any accepted spelling of a draft schema into the stored shape: fills defaults, mints missing ids
 * with `ids(prefix)` in document order, normalizes targets, and checks every reference. Returns all issues,
 * ordered by where they occur in `input`.
 */
export function parseDraftSchema(input: unknown, ids: IdSource): DraftResult<DraftSchema> {
  const result = parseDraft(input, ids);
  return result.ok ? result : { ok: false, issues: result.issues.map(toDraftIssue) };
}
