import type { DraftIssueCode } from '@forms/contracts';
import { rawIssue, type PathSegment, type RawIssue } from './issues';
import { DEFAULT_THANK_YOU_SCREEN_ID, type Field, type FormSettings, type Quiz, type Step, type WorkflowVariable } from './model';

export interface FieldEntry {
  field: Field;
  stepIndex: number;
  fieldIndex: number;
  path: PathSegment[];
}

/** Lookups the reference checks share. When ids repeat, the first occurrence is indexed. */
export interface FormIndex {
  stepIndex: Map<string, number>;
  fields: Map<string, FieldEntry>;
  variables: Map<string, WorkflowVariable>;
  /** Extra thank-you screens plus the default one. */
  screenIds: Set<string>;
  /** Only score quizzes have a running score. */
  hasScore: boolean;
}

function firstWins<K, V>(entries: Iterable<[K, V]>): Map<K, V> {
  const map = new Map<K, V>();
  for (const [key, value] of entries) if (!map.has(key)) map.set(key, value);
  return map;
}

export function indexForm(steps: readonly Step[], settings: FormSettings, quiz: Quiz | undefined): FormIndex {
  return {
    stepIndex: firstWins(steps.map((step, i) => [step.id, i])),
    fields: firstWins(
      steps.flatMap((step, stepIndex) =>
        step.fields.map((field, fieldIndex): [string, FieldEntry] => [
          field.id,
          { field, stepIndex, fieldIndex, path: ['steps', stepIndex, 'fields', fieldIndex] },
        ]),
      ),
    ),
    variables: firstWins(settings.hidden.variables.map((v) => [v.id, v])),
    screenIds: new Set([DEFAULT_THANK_YOU_SCREEN_ID, ...settings.submissions.thankYouScreens.map((s) => s.id)]),
    hasScore: quiz?.type === 'score',
  };
}

/** An issue at every occurrence of a key that occurs more than once. */
export function repeated(entries: Iterable<{ key: string; path: PathSegment[] }>, code: DraftIssueCode, message: string): RawIssue[] {
  const list = [...entries];
  const counts = new Map<string, number>();
  for (const { key } of list) counts.set(key, (counts.get(key) ?? 0) + 1);
  return list.filter(({ key }) => (counts.get(key) ?? 0) > 1).map(({ path }) => rawIssue(path, code, message));
}
