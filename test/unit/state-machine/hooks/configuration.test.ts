// Which hooks run at an invocation point: HookInvocationStatus / TargetStacks, TargetOperations, FailureMode,
// TargetFilters (Actions, TargetNames, Targets, wildcards), StackFilters, and the schema's handlers' targetNames.
import { describe, expect, it } from 'vitest';
import {
  applicable,
  applicableHooks,
  matchesTargetName,
  type ConfiguredHook,
  type HookTarget,
} from '../../../../state-machine/hooks/configuration.js';

const hook = (configuration: unknown, handlers?: Record<string, string[]>, typeName = 'MyOrg::Checks::Hook') =>
  ({
    typeName,
    typeArn: `arn:aws:cloudformation:us-east-1:000000000000:type/hook/${typeName}`,
    configuration,
    handlers,
  }) as ConfiguredHook;

const bucketCreate: HookTarget = {
  targetType: 'RESOURCE',
  action: 'CREATE',
  stackName: 'app',
  resourceType: 'AWS::S3::Bucket',
};

describe('applicable', () => {
  it('runs a hook whose TargetStacks is ALL, with its FailureMode', () => {
    expect(applicable(hook({ TargetStacks: 'ALL', FailureMode: 'FAIL' }), bucketCreate)?.failureMode).toBe('FAIL');
  });

  it('takes WARN when FailureMode is absent, and skips TargetStacks NONE or a DISABLED invocation status', () => {
    expect(applicable(hook({ TargetStacks: 'ALL' }), bucketCreate)?.failureMode).toBe('WARN');
    expect(applicable(hook({ TargetStacks: 'NONE', FailureMode: 'FAIL' }), bucketCreate)).toBeUndefined();
    expect(applicable(hook({ HookInvocationStatus: 'DISABLED', TargetStacks: 'ALL' }), bucketCreate)).toBeUndefined();
    expect(applicable(hook({ HookInvocationStatus: 'ENABLED' }), bucketCreate)).toBeDefined();
  });

  it('targets RESOURCE operations unless TargetOperations says otherwise', () => {
    const stackCreate: HookTarget = { targetType: 'STACK', action: 'CREATE', stackName: 'app' };
    expect(applicable(hook({ TargetStacks: 'ALL' }), stackCreate)).toBeUndefined();
    expect(applicable(hook({ TargetStacks: 'ALL', TargetOperations: ['STACK'] }), stackCreate)).toBeDefined();
    expect(applicable(hook({ TargetStacks: 'ALL', TargetOperations: ['STACK'] }), bucketCreate)).toBeUndefined();
  });

  it("reads the schema's handler targetNames for the action when no filter names types", () => {
    const h = hook({ TargetStacks: 'ALL' }, { preCreate: ['AWS::S3::Bucket'] });
    expect(applicable(h, bucketCreate)).toBeDefined();
    expect(applicable(h, { ...bucketCreate, action: 'UPDATE' })).toBeUndefined();
    expect(applicable(h, { ...bucketCreate, resourceType: 'AWS::SQS::Queue' })).toBeUndefined();
  });

  it('lets TargetFilters narrow by action, type name (with wildcards) and Targets', () => {
    const byName = hook({ TargetStacks: 'ALL', TargetFilters: { TargetNames: ['AWS::S3::*'], Actions: ['CREATE'] } });
    expect(applicable(byName, bucketCreate)).toBeDefined();
    expect(applicable(byName, { ...bucketCreate, action: 'DELETE' })).toBeUndefined();
    expect(applicable(byName, { ...bucketCreate, resourceType: 'AWS::SQS::Queue' })).toBeUndefined();
    const byTargets = hook({
      TargetStacks: 'ALL',
      TargetFilters: {
        Targets: [{ TargetName: 'AWS::SQS::Queue', Action: 'DELETE', InvocationPoint: 'PRE_PROVISION' }],
      },
    });
    expect(applicable(byTargets, { ...bucketCreate, resourceType: 'AWS::SQS::Queue', action: 'DELETE' })).toBeDefined();
    expect(applicable(byTargets, { ...bucketCreate, resourceType: 'AWS::SQS::Queue' })).toBeUndefined();
  });

  it('keeps to the stacks StackFilters include and away from those it excludes', () => {
    const h = hook({ TargetStacks: 'ALL', StackFilters: { StackNames: { Include: ['app'] } } });
    expect(applicable(h, bucketCreate)).toBeDefined();
    expect(applicable(h, { ...bucketCreate, stackName: 'other' })).toBeUndefined();
    const excluding = hook({ TargetStacks: 'ALL', StackFilters: { StackNames: { Exclude: ['app'] } } });
    expect(applicable(excluding, bucketCreate)).toBeUndefined();
  });
});

describe('applicableHooks', () => {
  it('lists the hooks that apply in type-name order', () => {
    const hooks = [
      hook({ TargetStacks: 'ALL' }, undefined, 'Zed::Checks::Hook'),
      hook({ TargetStacks: 'NONE' }, undefined, 'Mid::Checks::Hook'),
      hook({ TargetStacks: 'ALL' }, undefined, 'Abc::Checks::Hook'),
    ];
    expect(applicableHooks(hooks, bucketCreate).map((h) => h.hook.typeName)).toEqual([
      'Abc::Checks::Hook',
      'Zed::Checks::Hook',
    ]);
  });
});

describe('matchesTargetName', () => {
  it.each([
    ['AWS::S3::Bucket', 'AWS::S3::Bucket', true],
    ['AWS::S3::*', 'AWS::S3::Bucket', true],
    ['AWS::*::Bucket', 'AWS::S3::Bucket', true],
    ['AWS::S?::Bucket', 'AWS::S3::Bucket', true],
    ['AWS::SQS::*', 'AWS::S3::Bucket', false],
    ['*', 'AWS::EC2::VPC', true],
  ])('%s matches %s: %s', (pattern, name, expected) => {
    expect(matchesTargetName(pattern, name)).toBe(expected);
  });
});
