// Evaluation of intrinsic functions over any template value: the INTRINSICS table keyed by their literal names.
import { NO_VALUE } from '../model.js';
import type { EvalContext, Evaluate, Intrinsic } from './context.js';
import { templateError, UNKNOWN_VALUE } from './context.js';
import { REFERENCE_FUNCTIONS } from './references.js';
import { STRING_FUNCTIONS } from './strings.js';
import { CONDITION_FUNCTIONS } from './conditions.js';
import { LOOKUP_FUNCTIONS } from './lookups.js';
import { RULE_FUNCTIONS } from './rules.js';
import { STACK_OUTPUT_FUNCTIONS } from './stackOutputs.js';

export type { Intrinsic, Evaluate } from './context.js';

export const INTRINSICS: Partial<Record<string, Intrinsic>> = {
  ...REFERENCE_FUNCTIONS,
  ...STRING_FUNCTIONS,
  ...CONDITION_FUNCTIONS,
  ...LOOKUP_FUNCTIONS,
  ...RULE_FUNCTIONS,
  ...STACK_OUTPUT_FUNCTIONS,
};

const MAX_STEPS = 200_000;

/** The single key of a one-key object when it names an intrinsic function. */
export function intrinsicName(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1) return undefined;
  const key = keys[0];
  if (key === 'Condition') return typeof (value as Record<string, unknown>).Condition === 'string' ? key : undefined;
  return key === 'Ref' || key.startsWith('Fn::') ? key : undefined;
}

export const evaluate: Evaluate = (value, ctx) => {
  if (++ctx.budget.steps > MAX_STEPS) throw templateError('the template is too complex to evaluate.');
  if (typeof value === 'string')
    return ctx.dynamicReferences && value.includes('{{resolve:') ? ctx.dynamicReferences(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const v = evaluate(item, ctx);
      if (v !== NO_VALUE) out.push(v);
    }
    return out;
  }
  const name = intrinsicName(value);
  if (name) {
    const fn = INTRINSICS[name];
    const arg = (value as Record<string, unknown>)[name];
    if (!fn) throw templateError(`Unrecognized function ${name}`);
    const result = ctx.preview ? previewCall(fn, arg, ctx, ctx.preview) : fn(arg, ctx, evaluate);
    // A reference assembled by Fn::Sub or Fn::Join is resolved once the string exists.
    if (typeof result === 'string' && ctx.dynamicReferences && result.includes('{{resolve:'))
      return ctx.dynamicReferences(result);
    return result;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    ctx.path.push(k);
    const r = evaluate(v, ctx);
    ctx.path.pop();
    if (r !== NO_VALUE) out[k] = r;
  }
  return out;
};

/** In a preview, a function that read an unknown value yields UNKNOWN_VALUE; AWS reports its errors at execution. */
function previewCall(fn: Intrinsic, arg: unknown, ctx: EvalContext, preview: { count: number }): unknown {
  const before = preview.count;
  try {
    const result = fn(arg, ctx, evaluate);
    return preview.count > before ? UNKNOWN_VALUE : result;
  } catch (err) {
    if (preview.count > before) return UNKNOWN_VALUE;
    throw err;
  }
}
