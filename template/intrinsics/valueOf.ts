// Fn::ValueOf and Fn::ValueOfAll (Rules only): an attribute of the resources that AWS-specific parameter values
// name, read from the account (a subnet's VpcId, a VPC's Tags.<key>).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-rules.html
import type { ParameterDef } from '../model.js';
import type { EvalContext } from './context.js';
import { templateError } from './context.js';
import type { Evaluate } from './context.js';

const LIST = /^List<(.+)>$/;
const itemType = (type: string) => LIST.exec(type)?.[1] ?? type;

function attributeOf(fn: string, ctx: EvalContext, parameterType: string, id: string, attribute: string): string {
  const value = ctx.parameterAttribute?.(parameterType, id, attribute);
  if (value === undefined)
    throw templateError(`${fn} does not support attribute ${attribute} for parameter type ${parameterType}`);
  return value;
}

function args(fn: string, arg: unknown, ctx: EvalContext, evaluate: Evaluate): [string, string] {
  if (!Array.isArray(arg) || arg.length !== 2) throw templateError(`every ${fn} object requires two parameters.`);
  const [first, attribute] = [evaluate(arg[0], ctx), evaluate(arg[1], ctx)];
  if (typeof first !== 'string' || typeof attribute !== 'string')
    throw templateError(`every ${fn} object requires two string parameters.`);
  return [first, attribute];
}

/** `Fn::ValueOf: [ParameterLogicalId, Attribute]`: one value, or a list for a List<…> parameter. */
function valueOf(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string | string[] {
  const [name, attribute] = args('Fn::ValueOf', arg, ctx, evaluate);
  const def = ctx.model.parameters[name] as ParameterDef | undefined;
  const value = ctx.parameters.get(name);
  if (!def || value === undefined) throw templateError(`Fn::ValueOf references undefined parameter ${name}`);
  const type = itemType(def.Type);
  return Array.isArray(value)
    ? value.map((id) => attributeOf('Fn::ValueOf', ctx, type, id, attribute))
    : attributeOf('Fn::ValueOf', ctx, type, value, attribute);
}

/** `Fn::ValueOfAll: [ParameterType, Attribute]`: the attribute over every value of every parameter of the type. */
function valueOfAll(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string[] {
  const [type, attribute] = args('Fn::ValueOfAll', arg, ctx, evaluate);
  const item = itemType(type);
  return Object.entries(ctx.model.parameters)
    .filter(([, def]) => itemType(def.Type) === item)
    .flatMap(([name]) => ctx.parameters.get(name) ?? [])
    .filter((id) => id !== '')
    .map((id) => attributeOf('Fn::ValueOfAll', ctx, item, id, attribute));
}

export const VALUE_OF_FUNCTIONS = { 'Fn::ValueOf': valueOf, 'Fn::ValueOfAll': valueOfAll };
