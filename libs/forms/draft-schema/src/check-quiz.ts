import { repeated, type FormIndex } from './form-index';
import { rawIssue, type PathSegment, type RawIssue } from './issues';
import type { Quiz } from './model';

/** Endings point at thank-you screens; mappings at a choice field's option and (match quizzes) an ending. */
export function checkQuiz(quiz: Quiz, index: FormIndex): RawIssue[] {
  const endings = quiz.endings.map((ending, i) => ({ ending, path: ['quiz', 'endings', i] }));
  const mappings = quiz.mappings.map((mapping, i) => ({ mapping, path: ['quiz', 'mappings', i] }));
  const endingIds = new Set(quiz.endings.map((e) => e.id));
  const issues = [
    ...repeated(
      endings.map(({ ending, path }) => ({ key: ending.id, path: [...path, 'id'] })),
      'duplicate_id',
      'Another ending also uses this id.',
    ),
    ...repeated(
      mappings.map(({ mapping, path }) => ({ key: mapping.id, path: [...path, 'id'] })),
      'duplicate_id',
      'Another mapping also uses this id.',
    ),
  ];
  for (const { ending, path } of endings) {
    if (!index.screenIds.has(ending.screenId)) issues.push(rawIssue([...path, 'screenId'], 'unknown_reference', 'No thank-you screen has this id.'));
  }
  for (const { mapping, path } of mappings) issues.push(...checkMapping(mapping, path, quiz, endingIds, index));
  return issues;
}

function checkMapping(mapping: Quiz['mappings'][number], path: PathSegment[], quiz: Quiz, endingIds: Set<string>, index: FormIndex): RawIssue[] {
  const issues: RawIssue[] = [];
  const field = index.fields.get(mapping.fieldId)?.field;
  if (!field) issues.push(rawIssue([...path, 'fieldId'], 'unknown_reference', 'No field has this id.'));
  else if (!('options' in field)) {
    issues.push(rawIssue([...path, 'fieldId'], 'not_a_choice_field', 'Quiz answers come from choice fields only.'));
  } else if (!field.options.some((o) => o.value === mapping.optionValue)) {
    issues.push(rawIssue([...path, 'optionValue'], 'unknown_reference', 'This field has no option with this value.'));
  }
  if (mapping.endingId === undefined) {
    if (quiz.type === 'match') issues.push(rawIssue([...path, 'endingId'], 'required', 'A match quiz mapping names the ending it counts toward.'));
  } else if (!endingIds.has(mapping.endingId)) {
    issues.push(rawIssue([...path, 'endingId'], 'unknown_reference', 'No ending has this id.'));
  }
  return issues;
}
