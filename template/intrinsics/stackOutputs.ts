// Fn::GetStackOutput: the value of another stack's output, without an export, across regions and (through the
// account of RoleArn) accounts of the simulated world.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-getstackoutput.html
import { TemplateError, templateError, type EvalContext } from './context.js';
import type { Evaluate } from './context.js';

const USAGE =
  'Fn::GetStackOutput requires an object with StackName and OutputName strings, and optional Region and RoleArn strings.';
const KEYS = new Set(['StackName', 'OutputName', 'Region', 'RoleArn']);
const ROLE_ARN = /^arn:aws[-a-z]*:iam::(\d{12}):role\/.+$/;

function getStackOutput(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string {
  if (arg === null || typeof arg !== 'object' || Array.isArray(arg) || !Object.keys(arg).every((k) => KEYS.has(k))) {
    throw templateError(USAGE);
  }
  const fields = Object.fromEntries(Object.entries(arg).map(([k, v]) => [k, evaluate(v, ctx)]));
  const { StackName, OutputName, Region, RoleArn } = fields;
  const optional = (v: unknown) => v === undefined || typeof v === 'string';
  if (typeof StackName !== 'string' || typeof OutputName !== 'string' || !optional(Region) || !optional(RoleArn)) {
    throw templateError(USAGE);
  }
  let account = String(ctx.pseudo['AWS::AccountId']);
  if (typeof RoleArn === 'string') {
    const match = ROLE_ARN.exec(RoleArn);
    if (!match) throw templateError(`Fn::GetStackOutput: RoleArn ${RoleArn} is not a valid IAM role ARN.`);
    account = match[1];
  }
  const region = typeof Region === 'string' ? Region : String(ctx.pseudo['AWS::Region']);
  if (!ctx.stackOutput) throw new TemplateError(`Fn::GetStackOutput is resolved when the stack is deployed.`, true);
  return ctx.stackOutput({ stackName: StackName, outputName: OutputName, region, account });
}

export const STACK_OUTPUT_FUNCTIONS = { 'Fn::GetStackOutput': getStackOutput };
