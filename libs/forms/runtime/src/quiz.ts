import type { AnswerValue, DraftSchema } from '@forms/draft-schema';
import { findField, own } from './lookup';
import type { Answers } from './run-state';

export interface QuizResult {
  /** The chosen ending; null without an enabled quiz, or when no answer counted (match) or no range holds (score). */
  endingId: string | null;
  /** The sum of the points of every mapping the answers select. */
  score: number;
  /** Match quizzes: points per ending id (every ending listed). Score quizzes: empty. */
  points: Record<string, number>;
}

/**
 * Match quizzes pick the ending with the most points (ties go to the earlier ending); score quizzes pick the first
 * ending whose inclusive [minScore, maxScore] holds the score (a missing bound is open).
 * A ranking answer selects only its top-ranked option.
 */
export function scoreQuiz(schema: DraftSchema, answers: Answers): QuizResult {
  const quiz = schema.quiz;
  if (!quiz?.enabled) return { endingId: null, score: 0, points: {} };
  const points: Record<string, number> = {};
  for (const ending of quiz.endings) points[ending.id] = 0;
  let score = 0;
  let counted = false;
  for (const mapping of quiz.mappings) {
    if (!selectedOptions(schema, mapping.fieldId, own(answers, mapping.fieldId)).includes(mapping.optionValue)) continue;
    score += mapping.points;
    if (mapping.endingId !== undefined && own(points, mapping.endingId) !== undefined) {
      points[mapping.endingId] += mapping.points;
      counted = true;
    }
  }
  if (quiz.type === 'score') {
    const ending = quiz.endings.find((e) => (e.minScore ?? -Infinity) <= score && score <= (e.maxScore ?? Infinity));
    return { endingId: ending?.id ?? null, score, points: {} };
  }
  let best: string | null = null;
  for (const ending of quiz.endings) if (counted && (best === null || points[ending.id] > points[best])) best = ending.id;
  return { endingId: best, score, points };
}

function selectedOptions(schema: DraftSchema, fieldId: string, answer: AnswerValue | undefined): string[] {
  if (typeof answer === 'string') return [answer];
  if (!Array.isArray(answer)) return [];
  const values = answer.filter((item): item is string => typeof item === 'string');
  return findField(schema, fieldId)?.type === 'ranking' ? values.slice(0, 1) : values;
}
