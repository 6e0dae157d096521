import type { VariableAction } from '@forms/draft-schema';
import { numericOperand, textOperand, variableType, variableValue, type RunContext } from './operands';
import type { RunState, VariableValue } from './run-state';

/**
 * Applies one action and returns the new state. An action is skipped (the variable keeps its value) when its operand
 * has no usable value, when it divides by zero, or when the operation does not fit the variable's type.
 * A number variable without a value counts as 0 and a text variable as ''.
 */
export function applyAction(context: RunContext, action: VariableAction): RunState {
  const type = variableType(context.schema, action.variableId);
  if (!type) return context.state;
  const current = variableValue(context, action.variableId);
  const next = action.operation === 'clear' ? null : type === 'number' ? numberResult(context, action, current) : textResult(context, action, current);
  if (next === undefined) return context.state;
  return { ...context.state, variables: { ...context.state.variables, [action.variableId]: next } };
}

function numberResult(context: RunContext, action: VariableAction, current: VariableValue): number | undefined {
  const operand = action.operand && numericOperand(context, action.operand);
  if (operand === undefined || operand === null) return undefined;
  const base = typeof current === 'number' ? current : 0;
  switch (action.operation) {
    case 'set':
      return operand;
    case 'add':
      return base + operand;
    case 'subtract':
      return base - operand;
    case 'multiply':
      return base * operand;
    case 'divide':
      return operand === 0 ? undefined : base / operand;
    default:
      return undefined;
  }
}

function textResult(context: RunContext, action: VariableAction, current: VariableValue): string | undefined {
  const operand = action.operand && textOperand(context, action.operand);
  if (operand === undefined || operand === null) return undefined;
  const base = current === null ? '' : String(current);
  switch (action.operation) {
    case 'set':
      return operand;
    case 'append':
      return base + operand;
    case 'prepend':
      return operand + base;
    default:
      return undefined;
  }
}
