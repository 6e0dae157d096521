import { DEFAULT_THANK_YOU_SCREEN_ID, type DraftSchema, type Target, type ThankYouScreen } from '@forms/draft-schema';
import { advance, answersOnSteps } from './navigation';
import { scoreQuiz } from './quiz';
import { createRunState, type Answers, type RunState } from './run-state';

export interface WalkResult {
  visitedStepIds: string[];
  /** The run state after the last step (for `paymentAmount`). */
  state: RunState;
  variables: RunState['variables'];
  /** The quiz score (0 without an enabled quiz). */
  score: number;
  quiz: { endingId: string | null; score: number } | null;
  endingScreen: ThankYouScreen;
  redirectTo: string | null;
}

/** Replays a whole run from the first step, as the server does to validate and finalize a submission. */
export function walk(schema: DraftSchema, answers: Answers, hiddenValues: Record<string, string | number>): WalkResult {
  let state = createRunState(schema, hiddenValues);
  const visitedStepIds: string[] = [];
  let next: Target = schema.steps.length > 0 ? { type: 'step', stepId: schema.steps[0].id } : { type: 'end' };
  while (next.type === 'step') {
    visitedStepIds.push(next.stepId);
    ({ next, state } = advance(schema, state, answers, visitedStepIds));
  }
  const quiz = scoreQuiz(schema, answersOnSteps(schema, visitedStepIds, answers));
  const screen = endingScreen(schema, next, quiz.endingId);
  return {
    visitedStepIds,
    state,
    variables: state.variables,
    score: quiz.score,
    quiz: schema.quiz?.enabled ? { endingId: quiz.endingId, score: quiz.score } : null,
    endingScreen: screen,
    redirectTo: screen.redirectUrl ?? null,
  };
}

/** An explicit thank-you target wins, then the quiz ending's screen, then the default screen. */
export function endingScreen(schema: DraftSchema, finalTarget: Target, quizEndingId: string | null): ThankYouScreen {
  const explicit = finalTarget.type === 'thank_you' ? screenById(schema, finalTarget.screenId) : undefined;
  const ending = schema.quiz?.endings.find((candidate) => candidate.id === quizEndingId);
  return explicit ?? (ending && screenById(schema, ending.screenId)) ?? schema.settings.submissions.thankYou;
}

function screenById(schema: DraftSchema, screenId: string): ThankYouScreen | undefined {
  const { thankYou, thankYouScreens } = schema.settings.submissions;
  return screenId === DEFAULT_THANK_YOU_SCREEN_ID ? thankYou : thankYouScreens.find((screen) => screen.id === screenId);
}
