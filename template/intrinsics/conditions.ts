// Fn::If, Fn::Equals, Fn::And, Fn::Or, Fn::Not and the `Condition` reference.
import type { EvalContext } from './context.js';
import { templateError } from './context.js';
import type { Evaluate } from './context.js';

function conditionValue(name: unknown, ctx: EvalContext, where: string): boolean {
  if (typeof name !== 'string' || !ctx.conditions.has(name)) {
    throw templateError(`unresolved condition dependency ${String(name)} in ${where}`);
  }
  return ctx.conditions.get(name) as boolean;
}

function fnIf(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  if (!Array.isArray(arg) || arg.length !== 3) {
    throw templateError(
      'every Fn::If object requires three parameters, (1) a condition name, (2) a value to return when the condition is true, and (3) a value to return when the condition is false.',
    );
  }
  return conditionValue(arg[0], ctx, 'Fn::If') ? evaluate(arg[1], ctx) : evaluate(arg[2], ctx);
}

function scalarString(value: unknown): unknown {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function equals(arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean {
  if (!Array.isArray(arg) || arg.length !== 2) {
    throw templateError('every Fn::Equals object requires a list of 2 string parameters.');
  }
  const a = scalarString(evaluate(arg[0], ctx));
  const b = scalarString(evaluate(arg[1], ctx));
  return JSON.stringify(a) === JSON.stringify(b);
}

function booleanOf(value: unknown, fn: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw templateError(`every ${fn} object requires a list of conditions.`);
}

function logical(fn: 'Fn::And' | 'Fn::Or') {
  return (arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean => {
    if (!Array.isArray(arg) || arg.length < 2 || arg.length > 10) {
      throw templateError(`every ${fn} object requires a list of at least 2 and at most 10 boolean parameters.`);
    }
    const values = arg.map((a) => booleanOf(evaluate(a, ctx), fn));
    return fn === 'Fn::And' ? values.every(Boolean) : values.some(Boolean);
  };
}

function not(arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean {
  if (!Array.isArray(arg) || arg.length !== 1) {
    throw templateError('every Fn::Not object requires a list of 1 boolean parameter.');
  }
  return !booleanOf(evaluate(arg[0], ctx), 'Fn::Not');
}

export const CONDITION_FUNCTIONS = {
  'Fn::If': fnIf,
  'Fn::Equals': equals,
  'Fn::And': logical('Fn::And'),
  'Fn::Or': logical('Fn::Or'),
  'Fn::Not': not,
  Condition: (arg: unknown, ctx: EvalContext) => conditionValue(arg, ctx, 'Condition'),
};
