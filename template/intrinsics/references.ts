// Ref, Fn::GetAtt, Fn::Sub and Fn::ImportValue: the functions that read parameters, pseudo parameters,
// resources and other stacks' exports.
import { NO_VALUE } from '../model.js';
import type { EvalContext } from './context.js';
import { templateError, UNKNOWN_VALUE } from './context.js';
import type { Evaluate } from './context.js';

export const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::Region',
  'AWS::StackName',
  'AWS::StackId',
  'AWS::Partition',
  'AWS::URLSuffix',
  'AWS::NotificationARNs',
  'AWS::NoValue',
]);

export function ref(name: unknown, ctx: EvalContext): unknown {
  if (typeof name !== 'string') throw templateError('Fn::Ref requires a string.');
  if (name === 'AWS::NoValue') return NO_VALUE;
  if (PSEUDO_PARAMETERS.has(name)) return ctx.pseudo[name];
  if (ctx.parameters.has(name)) return ctx.parameters.get(name);
  if (ctx.model.resources.has(name)) return ctx.resourceRef(name);
  throw templateError(`Unresolved resource dependencies [${name}] in the Resources block of the template`);
}

/** `[Logical, Attr]` (the attribute may itself be a Ref in the dynamic form) or `Logical.Attr`. */
export function getAttTarget(arg: unknown, ctx: EvalContext, evaluate: Evaluate): [string, string] {
  const parts = typeof arg === 'string' ? splitDotted(arg) : arg;
  const invalid = () =>
    templateError(
      'every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute',
    );
  if (!Array.isArray(parts) || parts.length !== 2 || typeof parts[0] !== 'string' || !parts[0]) throw invalid();
  const attribute = typeof parts[1] === 'string' ? parts[1] : evaluate(parts[1], ctx);
  if (typeof attribute !== 'string' || !attribute) throw invalid();
  return [parts[0], attribute];
}

function splitDotted(s: string): string[] {
  const dot = s.indexOf('.');
  return dot < 0 ? [s] : [s.slice(0, dot), s.slice(dot + 1)];
}

function getAtt(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  const [logicalId, attribute] = getAttTarget(arg, ctx, evaluate);
  if (!ctx.model.resources.has(logicalId)) {
    throw templateError(`Unresolved resource dependencies [${logicalId}] in the Resources block of the template`);
  }
  return ctx.resourceAttribute(logicalId, attribute);
}

const SUB_VARIABLE = /\$\{([^}]*)\}/g;

function stringOf(value: unknown, where: string): string {
  if (typeof value === 'string') return value;
  // A previewed value not known yet: the preview drops this result anyway (previewCall), so no error (and its
  // stack trace, ~10 µs a Fn::Sub at every CreateStack) is made for it.
  if (value === UNKNOWN_VALUE) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.join(',');
  throw templateError(`${where}: value is not a string`);
}

function sub(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  let text: unknown = arg;
  let vars: Record<string, unknown> = {};
  if (Array.isArray(arg)) {
    if (arg.length !== 2 || typeof arg[0] !== 'string' || arg[1] === null || typeof arg[1] !== 'object') {
      throw templateError(
        "One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string",
      );
    }
    text = arg[0];
    vars = arg[1] as Record<string, unknown>;
  }
  if (typeof text !== 'string') {
    throw templateError(
      "One or more Fn::Sub intrinsic functions don't specify expected arguments. Specify a string as first argument, and an optional second argument to specify a mapping of values to replace in the string",
    );
  }
  const resolvedVars = new Map<string, unknown>();
  for (const [k, v] of Object.entries(vars)) resolvedVars.set(k, evaluate(v, ctx));
  return text.replace(SUB_VARIABLE, (whole, inner: string) => {
    if (inner.startsWith('!')) return `\${${inner.slice(1)}}`;
    const name = inner.trim();
    if (resolvedVars.has(name)) return stringOf(resolvedVars.get(name), 'Fn::Sub');
    const dot = name.indexOf('.');
    if (dot > 0 && !PSEUDO_PARAMETERS.has(name) && ctx.model.resources.has(name.slice(0, dot))) {
      return stringOf(ctx.resourceAttribute(name.slice(0, dot), name.slice(dot + 1)), 'Fn::Sub');
    }
    return stringOf(ref(name, ctx), 'Fn::Sub');
  });
}

function importValue(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  const name = evaluate(arg, ctx);
  if (typeof name !== 'string') throw templateError('Fn::ImportValue requires a string export name.');
  return ctx.importValue(name);
}

export const REFERENCE_FUNCTIONS = {
  Ref: (arg: unknown, ctx: EvalContext) => ref(arg, ctx),
  'Fn::GetAtt': getAtt,
  'Fn::Sub': sub,
  'Fn::ImportValue': importValue,
};
