// The Rules section: each rule's RuleCondition and Assertions evaluated over the parameter values, after the
// parameters resolve and before anything is created; a false assertion refuses the call with its AssertDescription.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/rules-section-structure.html
import { validationError } from '../domain/errors.js';
import { evaluate } from './intrinsics/index.js';
import type { EvalContext } from './intrinsics/context.js';
import { isObject } from '../domain/values.js';

const RULE_KEYS = new Set(['RuleCondition', 'Assertions']);
const ASSERTION_KEYS = new Set(['Assert', 'AssertDescription']);

/** Shape checks that need no parameter value (also run by ValidateTemplate). */
export function checkRulesShape(rules: Record<string, unknown>): void {
  for (const [name, rule] of Object.entries(rules)) {
    const bad = (what: string) => validationError(`Template format error: [/Rules/${name}] ${what}`);
    if (!isObject(rule)) throw bad('Every Rules member must be an object.');
    const unknown = Object.keys(rule).filter((k) => !RULE_KEYS.has(k));
    if (unknown.length) throw bad(`Invalid rule property or properties [${unknown.join(', ')}]`);
    if (!Array.isArray(rule.Assertions)) throw bad('Every Rules member must contain an Assertions list.');
    for (const a of rule.Assertions) {
      if (!isObject(a) || a.Assert === undefined) throw bad('Every Assertions member must contain an Assert object.');
      if (Object.keys(a).some((k) => !ASSERTION_KEYS.has(k)))
        throw bad('Every Assertions member may only contain Assert and AssertDescription.');
      if (a.AssertDescription !== undefined && typeof a.AssertDescription !== 'string')
        throw bad('Every AssertDescription must be a string.');
    }
  }
}

function truth(value: unknown, where: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw validationError(`Template format error: ${where} must evaluate to a boolean.`);
}

/** Evaluates every rule; throws AWS's ValidationError for the first assertion that does not hold. */
export function checkRules(ctx: EvalContext): void {
  const rules = ctx.model.rules as Record<
    string,
    { RuleCondition?: unknown; Assertions: { Assert: unknown; AssertDescription?: string }[] }
  >;
  for (const [name, rule] of Object.entries(rules)) {
    if (rule.RuleCondition !== undefined && !truth(evaluate(rule.RuleCondition, ctx), `[/Rules/${name}/RuleCondition]`))
      continue;
    rule.Assertions.forEach((a, i) => {
      if (truth(evaluate(a.Assert, ctx), `[/Rules/${name}/Assertions/${i}/Assert]`)) return;
      // AWS answers with the rule's AssertDescription verbatim; without one, with a generic text.
      throw validationError(a.AssertDescription ?? `Template error: Assertion failed for rule ${name}`);
    });
  }
}
