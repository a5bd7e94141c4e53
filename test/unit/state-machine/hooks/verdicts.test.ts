// A hook's verdict on demand: the Metadata's HookFail / HookError first, then control-API verdicts, else success.
import { describe, expect, it } from 'vitest';
import { HookVerdicts, type HookInvocationFacts } from '../../../../state-machine/hooks/verdicts.js';

const facts: HookInvocationFacts = {
  typeName: 'MyOrg::Checks::Hook',
  targetType: 'RESOURCE',
  action: 'CREATE',
  stackName: 'app',
  logicalId: 'Bucket',
  resourceType: 'AWS::S3::Bucket',
};

describe('HookVerdicts.decide', () => {
  it('succeeds without a verdict', () => {
    expect(new HookVerdicts().decide(facts)).toEqual({ status: 'HOOK_COMPLETE_SUCCEEDED' });
  });

  it("fails a hook the target's Metadata names in HookFail (or '*'), with HookMessage", () => {
    const verdicts = new HookVerdicts();
    const metadata = { 'cfn-local': { HookFail: ['MyOrg::Checks::Hook'], HookMessage: 'no public buckets' } };
    expect(verdicts.decide({ ...facts, metadata })).toEqual({
      status: 'HOOK_COMPLETE_FAILED',
      message: 'no public buckets',
    });
    expect(verdicts.decide({ ...facts, metadata: { 'cfn-local': { HookFail: '*' } } }).status).toBe(
      'HOOK_COMPLETE_FAILED',
    );
    expect(verdicts.decide({ ...facts, metadata: { 'cfn-local': { HookError: '*' } } }).status).toBe('HOOK_FAILED');
    expect(verdicts.decide({ ...facts, metadata: { 'cfn-local': { HookFail: 'Other::Checks::Hook' } } }).status).toBe(
      'HOOK_COMPLETE_SUCCEEDED',
    );
  });

  it('applies the first matching control-API verdict, used up after `times` invocations', () => {
    const verdicts = new HookVerdicts();
    verdicts.add({ logicalId: 'Queue', status: 'HOOK_FAILED' });
    verdicts.add({ typeName: 'MyOrg::Checks::Hook', status: 'HOOK_COMPLETE_FAILED', message: 'nope', times: 1 });
    expect(verdicts.decide(facts)).toEqual({ status: 'HOOK_COMPLETE_FAILED', message: 'nope' });
    expect(verdicts.decide(facts).status).toBe('HOOK_COMPLETE_SUCCEEDED');
    expect(verdicts.decide({ ...facts, logicalId: 'Queue' }).status).toBe('HOOK_FAILED');
    expect(verdicts.list()).toHaveLength(1);
  });
});
