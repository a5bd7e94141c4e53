// The resource types a stack refactor refuses to move: those of AWS's published list, and every custom resource.
import { describe, expect, it } from 'vitest';
import { refactorRefuses } from '../../../state-machine/refactors/unsupported.js';

describe('refactorRefuses', () => {
  it('refuses the listed types and custom resources, and nothing else', () => {
    for (const type of ['AWS::EC2::EIP', 'AWS::Route53::RecordSet', 'AWS::SageMaker::InferenceComponent'])
      expect(refactorRefuses(type)).toBe(true);
    expect(refactorRefuses('AWS::CloudFormation::CustomResource')).toBe(true);
    expect(refactorRefuses('Custom::MyThing')).toBe(true);
    for (const type of ['AWS::S3::Bucket', 'AWS::Lambda::Function', 'AWS::IAM::Role', 'AWS::SNS::Topic'])
      expect(refactorRefuses(type)).toBe(false);
  });
});
