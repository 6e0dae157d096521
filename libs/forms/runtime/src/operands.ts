import { answerToText, type AnswerValue, type DraftSchema, type Operand } from '@forms/draft-schema';
import { findField, own } from './lookup';
import { scoreQuiz } from './quiz';
import type { Answers, RunState, VariableValue } from './run-state';

/** Everything a condition or an action can read. */
export interface RunContext {
  schema: DraftSchema;
  state: RunState;
  answers: Answers;
}

/** A field's answer, or a hidden field's value. */
export function fieldValue(context: RunContext, fieldId: string): AnswerValue | undefined {
  return own(context.state.hidden, fieldId) ?? own(context.answers, fieldId);
}

export function variableValue(context: RunContext, variableId: string): VariableValue {
  return own(context.state.variables, variableId) ?? null;
}

export function variableType(schema: DraftSchema, variableId: string): 'number' | 'text' | undefined {
  return schema.settings.hidden.variables.find((variable) => variable.id === variableId)?.type;
}

/** The raw value an operand stands for; undefined for an unanswered field, null for a variable without a value. */
export function readOperand(context: RunContext, operand: Operand): AnswerValue | null | undefined {
  switch (operand.type) {
    case 'field':
      return fieldValue(context, operand.fieldId);
    case 'variable':
      return variableValue(context, operand.variableId);
    case 'score':
      return scoreQuiz(context.schema, context.answers).score;
    case 'number':
    case 'text':
      return operand.value;
  }
}

/** Workflow math reads only real numbers: numeric answers and hidden values, number variables (null as 0), the score, fixed numbers. */
export function numericOperand(context: RunContext, operand: Operand): number | null {
  if (operand.type === 'variable' && variableType(context.schema, operand.variableId) === 'number') {
    return numberOrNull(variableValue(context, operand.variableId)) ?? 0;
  }
  return numberOrNull(readOperand(context, operand));
}

/** Text for text variables: answers as `answerToText` writes them; null when there is nothing to write. */
export function textOperand(context: RunContext, operand: Operand): string | null {
  if (operand.type === 'field') {
    const field = findField(context.schema, operand.fieldId);
    const value = fieldValue(context, operand.fieldId);
    if (!field || value === undefined) return null;
    return field.type === 'hidden' ? String(value) : answerToText(field, value);
  }
  const value = readOperand(context, operand);
  return value === null || value === undefined ? null : String(value);
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
