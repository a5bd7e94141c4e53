// INPUT_RULES and the one checker behind them: AWS's texts, every broken member listed, enums held to the model.
import { describe, expect, it } from 'vitest';
import { ChangeSetType, HookStatus, ListHookResultsTargetType, TemplateStage } from '@aws-sdk/client-cloudformation';
import {
  CHANGE_SET_TYPE,
  HOOK_STATUS,
  HOOK_TARGET_TYPE,
  TEMPLATE_STAGE,
  checkInput,
} from '../../../handlers/cloudformation/inputRules.js';
import { constraintProblems } from '../../../domain/constraints.js';

const messageOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
};

describe('INPUT_RULES', () => {
  it("lists AWS's enum values in AWS's order, and exactly the model's values", () => {
    expect([...CHANGE_SET_TYPE.enum].sort()).toEqual(Object.values(ChangeSetType).sort());
    expect([...TEMPLATE_STAGE.enum].sort()).toEqual(Object.values(TemplateStage).sort());
    expect([...HOOK_TARGET_TYPE.enum].sort()).toEqual(Object.values(ListHookResultsTargetType).sort());
    expect([...HOOK_STATUS.enum].sort()).toEqual(Object.values(HookStatus).sort());
  });

  it('passes an input within its rules', () => {
    expect(messageOf(() => checkInput('CreateChangeSet', { StackName: 's', ChangeSetName: 'c' }))).toBeUndefined();
    expect(messageOf(() => checkInput('DescribeStacks', { StackName: '*' }))).toBeUndefined();
  });

  it('names one broken member in the singular', () => {
    expect(messageOf(() => checkInput('CreateStack', { StackName: '1bad' }))).toBe(
      "1 validation error detected: Value '1bad' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*",
    );
  });

  it('lists every broken member in model order, a length refusal without its value', () => {
    const input = { StackName: 'a'.repeat(129), ChangeSetName: '1bad', ChangeSetType: 'DELETE' };
    expect(messageOf(() => checkInput('CreateChangeSet', input))).toBe(
      '3 validation errors detected: ' +
        "Value at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 128; " +
        "Value '1bad' at 'changeSetName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*; " +
        "Value 'DELETE' at 'changeSetType' failed to satisfy constraint: Member must satisfy enum value set: [UPDATE, IMPORT, CREATE]",
    );
  });

  it('allows a stack ARN up to 256 characters', () => {
    const arn = `arn:aws:cloudformation:us-east-1:123456789012:stack/${'a'.repeat(200)}`;
    expect(messageOf(() => checkInput('UpdateStack', { StackName: arn }))).toBeUndefined();
    expect(messageOf(() => checkInput('UpdateStack', { StackName: arn + 'a'.repeat(40) }))).toBe(
      "1 validation error detected: Value at 'stackName' failed to satisfy constraint: Member must have length less than or equal to 256",
    );
  });
});

describe('constraintProblems', () => {
  it('words range refusals as AWS does', () => {
    expect(constraintProblems({ MaxResults: { minValue: 1, maxValue: 50 } }, { MaxResults: 0 })).toEqual([
      "Value '0' at 'maxResults' failed to satisfy constraint: Member must have value greater than or equal to 1",
    ]);
    expect(constraintProblems({ MaxResults: { minValue: 1, maxValue: 50 } }, { MaxResults: 51 })).toEqual([
      "Value '51' at 'maxResults' failed to satisfy constraint: Member must have value less than or equal to 50",
    ]);
  });

  it('matches the whole value against a pattern with alternatives', () => {
    expect(constraintProblems({ Name: { pattern: 'a|b' } }, { Name: 'ab' })).toHaveLength(1);
    expect(constraintProblems({ Name: { pattern: 'a|b' } }, { Name: 'b' })).toEqual([]);
  });
});
