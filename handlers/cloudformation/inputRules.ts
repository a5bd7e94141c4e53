// INPUT_RULES: the member rules AWS's CloudFormation front end enforces beyond the types the decoder checks, per
// Action, checked in one place (checkInput, before the handler) with AWS's "N validation error(s) detected" texts.
import { constraintProblems, type Constraint, type Constraints } from '../../domain/constraints.js';
import { validationError } from '../../domain/errors.js';
import { validationText } from '../../domain/serviceErrors.js';
import type { Action, InputOf } from './context.js';

// The SDK's model carries no @pattern or @length (the smithy schemas it ships drop them), and AWS does not enforce
// every constraint of its model: these are the ones recorded from AWS (test/api/stacks.test.ts, changeSets.test.ts).

/** A stack name, or a stack ARN: `arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<uuid>`. */
const STACK_NAME: Constraint = {
  maxLength: 128,
  maxLengthArn: 256,
  pattern: '[a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*',
};
// "An alias name can contain only alphanumeric characters (case-sensitive) and hyphens. It must start with an
// alphabetic character and can't be longer than 128 characters" (API_SetAlias).
const ALIAS_NAME: Constraint = { maxLength: 128, pattern: '[a-zA-Z][-a-zA-Z0-9]*' };
const CHANGE_SET_NAME: Constraint = { maxLength: 128, pattern: '[a-zA-Z][-a-zA-Z0-9]*' };
// Enum value sets in the order AWS prints them, not the model's (test/unit/handlers/inputRules.test.ts checks that
// they hold the model's values).
export const CHANGE_SET_TYPE = { enum: ['UPDATE', 'IMPORT', 'CREATE'] } as const satisfies Constraint;
export const TEMPLATE_STAGE = { enum: ['Original', 'Processed'] } as const satisfies Constraint;
// ListHookResults' filters, in the model's order (no AWS answer recorded)
export const HOOK_TARGET_TYPE = {
  enum: ['CHANGE_SET', 'STACK', 'RESOURCE', 'CLOUD_CONTROL'],
} as const satisfies Constraint;
export const HOOK_STATUS = {
  enum: ['HOOK_IN_PROGRESS', 'HOOK_COMPLETE_SUCCEEDED', 'HOOK_COMPLETE_FAILED', 'HOOK_FAILED'],
} as const satisfies Constraint;

export const INPUT_RULES: { readonly [A in Action]?: Constraints<InputOf<A>> } = {
  CreateStack: { StackName: STACK_NAME },
  UpdateStack: { StackName: STACK_NAME },
  CreateChangeSet: { StackName: STACK_NAME, ChangeSetName: CHANGE_SET_NAME, ChangeSetType: CHANGE_SET_TYPE },
  SetAlias: { AliasName: ALIAS_NAME },
  RemoveAlias: { AliasName: { maxLength: 128 } },
  GetTemplate: { TemplateStage: TEMPLATE_STAGE },
  DescribeStackResourceDrifts: { MaxResults: { minValue: 1, maxValue: 100 } },
  CreateStackRefactor: { Description: { maxLength: 1024 } },
  ListStackRefactors: { MaxResults: { minValue: 1, maxValue: 100 } },
  ListStackRefactorActions: { MaxResults: { minValue: 1, maxValue: 100 } },
  ListHookResults: { TargetType: HOOK_TARGET_TYPE, Status: HOOK_STATUS },
};

/** INPUT_RULES by an Action's name, as the dispatcher holds it. */
const RULES_BY_NAME: Readonly<Record<string, Constraints<Record<string, unknown>> | undefined>> = INPUT_RULES;

/** Refuses an input that breaks its Action's rules, listing every member that does. */
export function checkInput(action: string, input: Record<string, unknown>): void {
  const rules = RULES_BY_NAME[action];
  const problems = rules ? constraintProblems(rules, input) : [];
  if (problems.length) throw validationError(validationText(problems));
}
