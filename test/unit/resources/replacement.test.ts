import { describe, expect, it } from 'vitest';
import { changedProperties, replacementProperties } from '../../../resources/generic.js';

describe('changedProperties', () => {
  it('lists added, removed and changed properties by deep comparison', () => {
    expect(changedProperties({ A: 1, B: { x: [1, 2] }, C: 'same' }, { B: { x: [1, 3] }, C: 'same', D: true })).toEqual([
      'A',
      'B',
      'D',
    ]);
  });

  it('treats 5 and "5" as the same value, as CloudFormation passes scalars as strings', () => {
    expect(changedProperties({ DelaySeconds: 5, FifoQueue: true }, { DelaySeconds: '5', FifoQueue: 'true' })).toEqual(
      [],
    );
  });
});

describe('replacementProperties', () => {
  it('AWS::S3::Bucket: a BucketName change replaces, a Tags change does not', () => {
    expect(
      replacementProperties(
        'AWS::S3::Bucket',
        { BucketName: 'a', Tags: [] },
        { BucketName: 'b', Tags: [{ Key: 'k', Value: 'v' }] },
      ),
    ).toEqual([{ property: 'BucketName', requiresRecreation: 'Always' }]);
    expect(replacementProperties('AWS::S3::Bucket', { Tags: [] }, { Tags: [{ Key: 'k', Value: 'v' }] })).toEqual([]);
  });

  it('AWS::SSM::Parameter: a Name change replaces, a Value change does not', () => {
    const before = { Name: '/a', Type: 'String', Value: '1' };
    expect(replacementProperties('AWS::SSM::Parameter', before, { ...before, Name: '/b' })).toEqual([
      { property: 'Name', requiresRecreation: 'Always' },
    ]);
    expect(replacementProperties('AWS::SSM::Parameter', before, { ...before, Value: '2' })).toEqual([]);
  });

  it('adding or removing a create-only property replaces (AWS::SQS::Queue FifoQueue, QueueName)', () => {
    expect(replacementProperties('AWS::SQS::Queue', {}, { FifoQueue: true, QueueName: 'q.fifo' })).toEqual([
      { property: 'FifoQueue', requiresRecreation: 'Always' },
      { property: 'QueueName', requiresRecreation: 'Always' },
    ]);
    expect(replacementProperties('AWS::SQS::Queue', { VisibilityTimeout: 30 }, { VisibilityTimeout: 60 })).toEqual([]);
  });

  it('AWS::DynamoDB::Table KeySchema and AWS::RDS::DBInstance DBInstanceIdentifier replace', () => {
    expect(
      replacementProperties(
        'AWS::DynamoDB::Table',
        { KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }] },
        { KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }] },
      ),
    ).toEqual([{ property: 'KeySchema', requiresRecreation: 'Always' }]);
    expect(
      replacementProperties('AWS::RDS::DBInstance', { DBInstanceIdentifier: 'a' }, { DBInstanceIdentifier: 'b' }),
    ).toEqual([{ property: 'DBInstanceIdentifier', requiresRecreation: 'Always' }]);
  });

  it('reports Conditionally where the spec says the change may replace (AWS::EC2::VPC InstanceTenancy)', () => {
    expect(
      replacementProperties('AWS::EC2::VPC', { InstanceTenancy: 'default' }, { InstanceTenancy: 'dedicated' }),
    ).toEqual([{ property: 'InstanceTenancy', requiresRecreation: 'Conditionally' }]);
  });

  it('follows replacement marks inside type definitions (ECS CapacityProvider AutoScalingGroupArn)', () => {
    const before = {
      AutoScalingGroupProvider: { AutoScalingGroupArn: 'arn:a', ManagedTerminationProtection: 'DISABLED' },
    };
    expect(
      replacementProperties('AWS::ECS::CapacityProvider', before, {
        AutoScalingGroupProvider: { ...before.AutoScalingGroupProvider, AutoScalingGroupArn: 'arn:b' },
      }),
    ).toEqual([{ property: 'AutoScalingGroupProvider', requiresRecreation: 'Always' }]);
    expect(
      replacementProperties('AWS::ECS::CapacityProvider', before, {
        AutoScalingGroupProvider: { ...before.AutoScalingGroupProvider, ManagedTerminationProtection: 'ENABLED' },
      }),
    ).toEqual([]);
  });

  it('follows marks inside lists: AWS::EC2::Instance BlockDeviceMappings may replace, its Ebs KmsKeyId always does', () => {
    const mapping = (device: string, kms: string) => ({
      BlockDeviceMappings: [{ DeviceName: device, Ebs: { KmsKeyId: kms } }],
    });
    expect(replacementProperties('AWS::EC2::Instance', mapping('/dev/xvda', 'k1'), mapping('/dev/xvda', 'k2'))).toEqual(
      [{ property: 'BlockDeviceMappings', requiresRecreation: 'Always' }],
    );
    expect(replacementProperties('AWS::EC2::Instance', mapping('/dev/xvda', 'k1'), mapping('/dev/xvdb', 'k1'))).toEqual(
      [{ property: 'BlockDeviceMappings', requiresRecreation: 'Conditionally' }],
    );
  });

  it('returns nothing for unknown types and unknown properties', () => {
    expect(replacementProperties('Custom::Thing', { A: 1 }, { A: 2 })).toEqual([]);
    expect(replacementProperties('AWS::S3::Bucket', { Nope: 1 }, { Nope: 2 })).toEqual([]);
  });
});
