export { createRunState, type Answers, type RunState, type VariableValue } from './run-state';
export type { RunContext } from './operands';
export { conditionHolds, ruleHolds } from './conditions';
export { applyAction } from './actions';
export { advance, answersOnSteps, leaveStep, type Transition } from './navigation';
export { scoreQuiz, type QuizResult } from './quiz';
export { endingScreen, walk, type WalkResult } from './walk';
export { hasRequiredAnswer, missingRequired } from './required';
export { paymentAmount } from './payment';
