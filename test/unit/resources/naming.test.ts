import { describe, expect, it } from 'vitest';
import { fitParts, generatePhysicalName, seededRandom, type RandomSource } from '../../../resources/generic.js';

// A source that always returns the same characters, so the 12-character suffix is known.
const fixed =
  (chars: string): RandomSource =>
  () =>
    chars;
const SUFFIX = 'AbCdEfGhIjKl';

function name(type: string, stackName: string, logicalId: string, properties?: Record<string, unknown>): string {
  return generatePhysicalName({ type, stackName, logicalId, random: fixed(SUFFIX), properties });
}

describe('generatePhysicalName', () => {
  it('names most types <stack>-<LogicalId>-<12 alphanumerics>', () => {
    expect(name('AWS::Lambda::Function', 'stack-0d03b713', 'Function')).toBe(`stack-0d03b713-Function-${SUFFIX}`);
    expect(name('AWS::Logs::LogGroup', 'MyStack', 'Logs')).toBe(`MyStack-Logs-${SUFFIX}`);
    expect(name('AWS::DynamoDB::Table', 'MyStack', 'Table')).toBe(`MyStack-Table-${SUFFIX}`);
    expect(name('AWS::SNS::Topic', 'MyStack', 'MyTopic86869434')).toBe(`MyStack-MyTopic86869434-${SUFFIX}`);
  });

  it('names SSM parameters CFN-<LogicalId>-<12 alphanumerics>', () => {
    expect(name('AWS::SSM::Parameter', 'MyStack', 'MyParameter')).toMatch(/^CFN-MyParameter-[A-Za-z0-9]{12}$/);
  });

  it('lowercases S3 bucket names and keeps them within 63 characters', () => {
    expect(name('AWS::S3::Bucket', 'ImportStack', 'MyBucketF68F3FF0')).toBe(
      `importstack-mybucketf68f3ff0-${SUFFIX.toLowerCase()}`,
    );
    const long = name('AWS::S3::Bucket', 'A'.repeat(100), 'B'.repeat(100));
    expect(long).toHaveLength(63);
    expect(long).toBe(`${'a'.repeat(25)}-${'b'.repeat(24)}-${SUFFIX.toLowerCase()}`);
  });

  it('shortens the logical id when the stack name is short (real Lambda names, at most 63 characters)', () => {
    expect(
      name('AWS::Lambda::Function', 'OpenNextDemoStack', 'CustomCDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C'),
    ).toBe(`OpenNextDemoStack-CustomCDKBucketDeployment8693BB6-${SUFFIX}`);
    expect(name('AWS::Lambda::Function', 'AppStack', 'CustomCDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C')).toBe(
      `AppStack-CustomCDKBucketDeployment8693BB64968944B6-${SUFFIX}`,
    );
  });

  it('shortens the stack name when the logical id is short (StackSet Lambda name)', () => {
    expect(
      name(
        'AWS::Lambda::Function',
        'StackSet-StackSetPasswordPolicy-5e1837a5-0a7c-4c6c-a9a3-3b3d2c1f0e9d',
        'LambdaFunctionV2',
      ),
    ).toBe(`StackSet-StackSetPasswordPolicy-5-LambdaFunctionV2-${SUFFIX}`);
  });

  it('keeps IAM role names within 64 characters', () => {
    const role = name(
      'AWS::IAM::Role',
      'SapAnalyzer4Stack',
      'CustomCDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756CServiceRole89A01265',
    );
    expect(role).toBe(`SapAnalyzer4Stack-CustomCDKBucketDeployment8693BB64-${SUFFIX}`);
    expect(role).toHaveLength(64);
  });

  it('keeps SQS queue names within 80 characters and ends FIFO queue names with .fifo', () => {
    expect(
      name(
        'AWS::SQS::Queue',
        'amplify-gen2app-node-sandbox-9f7f159acf-MyCustomResources1234ABCD-1ABCDEFGHIJK',
        'MyQueueE6CA6235',
      ),
    ).toBe(`amplify-gen2app-node-sandbox-9f7f159acf-MyCustomRes-MyQueueE6CA6235-${SUFFIX}`);
    const fifo = name('AWS::SQS::Queue', 'S'.repeat(90), 'Q', { FifoQueue: 'true' });
    expect(fifo).toHaveLength(80);
    expect(fifo.endsWith(`-Q-${SUFFIX}.fifo`)).toBe(true);
    expect(name('AWS::SNS::Topic', 'S', 'T', { FifoTopic: true })).toBe(`S-T-${SUFFIX}.fifo`);
  });

  it('cuts Elastic Load Balancing v2 names to 6 + 5 characters', () => {
    expect(name('AWS::ElasticLoadBalancingV2::LoadBalancer', 'RestaurantStack', 'LB8A12904C')).toBe(
      `Restau-LB8A1-${SUFFIX}`,
    );
  });

  it('lowercases RDS instance identifiers', () => {
    expect(name('AWS::RDS::DBInstance', 'MyStack', 'Database')).toBe(`mystack-database-${SUFFIX.toLowerCase()}`);
  });

  it('draws a different suffix on every call from a random source', () => {
    const random = seededRandom(7);
    const a = generatePhysicalName({ type: 'AWS::SQS::Queue', stackName: 's', logicalId: 'Q', random });
    const b = generatePhysicalName({ type: 'AWS::SQS::Queue', stackName: 's', logicalId: 'Q', random });
    expect(a).toMatch(/^s-Q-[A-Za-z0-9]{12}$/);
    expect(a).not.toBe(b);
  });
});

describe('fitParts', () => {
  it('gives the stack part the odd character when both parts are cut', () => {
    expect(
      fitParts('StackSet-AWS-Landing-Zone-Baseline-Notifications', 'ForwardSnsNotificationLambdaRole', 64, 15),
    ).toEqual(['StackSet-AWS-Landing-Zone', 'ForwardSnsNotificationLa']);
  });

  it('leaves short names alone', () => {
    expect(fitParts('a', 'b', 10, 5)).toEqual(['a', 'b']);
    expect(fitParts('a'.repeat(300), 'b', undefined, 14)).toEqual(['a'.repeat(300), 'b']);
  });
});
