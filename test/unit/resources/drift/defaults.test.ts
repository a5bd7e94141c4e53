// Drift detection's defaults: the resource specification's (the registry schemas' `default`) where it records one,
// the hand-written table of resources/drift/rules.ts where it does not. A template that states a default matches
// an account that reports nothing for it; any other value still differs.
import { describe, expect, it } from 'vitest';
import { compareProperties } from '../../../../resources/drift/compare.js';
import { resourceSpec } from '../../../../resources/spec.js';

describe('drift defaults', () => {
  it('reads a default from the resource specification (AWS::CloudWatch::Alarm ActionsEnabled: true)', () => {
    expect(resourceSpec('AWS::CloudWatch::Alarm')!.defaults.ActionsEnabled).toBe(true);
    expect(compareProperties('AWS::CloudWatch::Alarm', { ActionsEnabled: true }, {}).differences).toEqual([]);
    expect(compareProperties('AWS::CloudWatch::Alarm', { ActionsEnabled: false }, {}).differences).toMatchObject([
      { PropertyPath: '/ActionsEnabled', DifferenceType: 'NOT_EQUAL' },
    ]);
  });

  it('parses a string default as JSON text (AWS::CodePipeline::Pipeline ExecutionMode: SUPERSEDED)', () => {
    expect(resourceSpec('AWS::CodePipeline::Pipeline')!.defaults.ExecutionMode).toBe('SUPERSEDED');
  });

  it('keeps the hand-written default where the specification has none (AWS::SQS::Queue VisibilityTimeout)', () => {
    expect(resourceSpec('AWS::SQS::Queue')!.defaults.VisibilityTimeout).toBeUndefined();
    expect(compareProperties('AWS::SQS::Queue', { VisibilityTimeout: 30 }, {}).differences).toEqual([]);
  });
});
