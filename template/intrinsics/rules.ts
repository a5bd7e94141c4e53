// The rule-specific functions of the Rules section: Fn::Contains, Fn::EachMemberEquals, Fn::EachMemberIn,
// Fn::RefAll, and Fn::ValueOf / Fn::ValueOfAll (valueOf.ts).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/rules-section-structure.html
import type { EvalContext } from './context.js';
import { templateError } from './context.js';
import type { Evaluate } from './context.js';
import { VALUE_OF_FUNCTIONS } from './valueOf.js';

const asList = (value: unknown): unknown[] | undefined =>
  Array.isArray(value) ? value : typeof value === 'string' ? [value] : undefined;

function pair(fn: string, arg: unknown, ctx: EvalContext, evaluate: Evaluate): [unknown[], unknown] {
  if (!Array.isArray(arg) || arg.length !== 2) throw templateError(`every ${fn} object requires two parameters.`);
  const list = asList(evaluate(arg[0], ctx));
  if (!list) throw templateError(`every ${fn} object requires a list of strings as its first parameter.`);
  return [list, evaluate(arg[1], ctx)];
}

function contains(arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean {
  const [list, value] = pair('Fn::Contains', arg, ctx, evaluate);
  return list.map(String).includes(String(value));
}

function eachMemberEquals(arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean {
  const [list, value] = pair('Fn::EachMemberEquals', arg, ctx, evaluate);
  return list.every((item) => String(item) === String(value));
}

function eachMemberIn(arg: unknown, ctx: EvalContext, evaluate: Evaluate): boolean {
  const [list, allowed] = pair('Fn::EachMemberIn', arg, ctx, evaluate);
  const set = new Set((asList(allowed) ?? []).map(String));
  return list.every((item) => set.has(String(item)));
}

/** Fn::RefAll: the values of every parameter of a type (lists flattened). */
function refAll(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string[] {
  const type = evaluate(arg, ctx);
  if (typeof type !== 'string') throw templateError('Fn::RefAll requires a parameter type.');
  return Object.entries(ctx.model.parameters)
    .filter(([, def]) => def.Type === type)
    .flatMap(([name]) => ctx.parameters.get(name) ?? []);
}

export const RULE_FUNCTIONS = {
  'Fn::Contains': contains,
  'Fn::EachMemberEquals': eachMemberEquals,
  'Fn::EachMemberIn': eachMemberIn,
  'Fn::RefAll': refAll,
  ...VALUE_OF_FUNCTIONS,
};
