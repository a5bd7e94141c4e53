// The spec-driven provider logic for a sample of types across services: validation texts, names, ids, Ref,
// GetAtt values and replacement decisions.
import { describe, expect, it } from 'vitest';
import {
  attributeValues,
  generatePhysicalName,
  newIdentity,
  refValue,
  replacementProperties,
  seededRandom,
  validateProperties,
} from '../../../resources/generic.js';
import { supportsAttribute } from '../../../resources/generic.js';

const ctx = { account: '123456789012', region: 'eu-west-1', partition: 'aws' };
const random = seededRandom(7);

describe('validateProperties', () => {
  it.each([
    [
      'AWS::Lambda::Function',
      { Runtime: 'nodejs20.x' },
      'Properties validation failed for resource Fn with message: [#: required key [Code] not found, #: required key [Role] not found]',
    ],
    [
      'AWS::S3::Bucket',
      { BucketName: 'b', Colour: 'red' },
      'Properties validation failed for resource Fn with message: [#: extraneous key [Colour] is not permitted]',
    ],
    [
      'AWS::DynamoDB::Table',
      { KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], ProvisionedThroughput: 5 },
      'Properties validation failed for resource Fn with message: [#/ProvisionedThroughput: expected type: JSONObject, found: Integer]',
    ],
    [
      'AWS::SQS::Queue',
      { VisibilityTimeout: 'soon' },
      'Properties validation failed for resource Fn with message: [#/VisibilityTimeout: expected type: Integer, found: String]',
    ],
    [
      'AWS::EC2::SecurityGroup',
      { GroupDescription: 'web', SecurityGroupIngress: [{ IpProtocol: 'tcp', Port: 80 }] },
      'Properties validation failed for resource Fn with message: [#/SecurityGroupIngress/0: extraneous key [Port] is not permitted]',
    ],
    [
      'AWS::IAM::Role',
      { AssumeRolePolicyDocument: {}, Tags: [{ Value: 'x' }] },
      'Properties validation failed for resource Fn with message: [#/Tags/0: required key [Key] not found]',
    ],
    ['AWS::SSM::Parameter', { Value: 'v' }, 'Property validation failure: [The property {/Type} is required]'],
  ])('%s: %j → the registry (or legacy) text', (type, properties, text) => {
    expect(validateProperties(type, properties, 'Fn')).toBe(text);
  });

  it.each([
    ['AWS::SQS::Queue', { VisibilityTimeout: '30', FifoQueue: 'true' }],
    ['AWS::Lambda::Function', { Code: { ZipFile: 'x' }, Role: 'arn:aws:iam::1:role/r', MemorySize: 128 }],
    ['AWS::SNS::Topic', {}],
    ['AWS::Events::Rule', { EventPattern: { source: ['x'] } }],
  ])('%s accepts %j (template scalars are converted as CloudFormation converts them)', (type, properties) => {
    expect(validateProperties(type, properties, 'X')).toBeUndefined();
  });
});

describe('names and ids', () => {
  it('a bucket gets a lowercase generated name of at most 63 characters', () => {
    const name = generatePhysicalName({
      stackName: 'MyVeryLongApplicationStackNameForTesting',
      logicalId: 'ArtifactsBucketWithALongLogicalId',
      type: 'AWS::S3::Bucket',
      random,
    });
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toBe(name.toLowerCase());
    expect(name).toMatch(/^myverylongapplicationstac[a-z]*-artifactsbucket[a-z]*-[a-z0-9]{12}$/);
  });

  it('an SSM parameter is named CFN-<Logical>-<suffix>; a FIFO queue ends in .fifo', () => {
    expect(generatePhysicalName({ stackName: 's', logicalId: 'Param', type: 'AWS::SSM::Parameter', random })).toMatch(
      /^CFN-Param-[A-Za-z0-9]{12}$/,
    );
    expect(
      generatePhysicalName({
        stackName: 's',
        logicalId: 'Q',
        type: 'AWS::SQS::Queue',
        random,
        properties: { FifoQueue: true },
      }),
    ).toMatch(/^s-Q-[A-Za-z0-9]{12}\.fifo$/);
  });

  it('a given name is the physical id, except where AWS identifies the resource otherwise', () => {
    expect(
      newIdentity({
        type: 'AWS::IAM::Role',
        logicalId: 'R',
        stackName: 's',
        properties: { RoleName: 'app' },
        ctx,
        random,
      }),
    ).toEqual({ physicalId: 'app', name: 'app' });
    expect(
      newIdentity({
        type: 'AWS::SQS::Queue',
        logicalId: 'Q',
        stackName: 's',
        properties: { QueueName: 'jobs' },
        ctx,
        random,
      }).physicalId,
    ).toBe('https://sqs.eu-west-1.amazonaws.com/123456789012/jobs');
    expect(
      newIdentity({
        type: 'AWS::IAM::ManagedPolicy',
        logicalId: 'P',
        stackName: 's',
        properties: { ManagedPolicyName: 'pol' },
        ctx,
        random,
      }).physicalId,
    ).toBe('arn:aws:iam::123456789012:policy/pol');
  });

  it('service-generated ids follow the service formats', () => {
    const id = (type: string) =>
      newIdentity({ type, logicalId: 'X', stackName: 's', properties: {}, ctx, random }).physicalId;
    expect(id('AWS::EC2::VPC')).toMatch(/^vpc-0[0-9a-f]{16}$/);
    expect(id('AWS::EC2::SecurityGroup')).toMatch(/^sg-0[0-9a-f]{16}$/);
    expect(id('AWS::Cognito::UserPool')).toMatch(/^eu-west-1_[A-Za-z0-9]{9}$/);
    expect(id('AWS::KMS::Key')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('Ref and Fn::GetAtt', () => {
  it('Ref is the physical id except for the documented exceptions', () => {
    expect(refValue({ type: 'AWS::S3::Bucket', physicalId: 'b' })).toBe('b');
    expect(
      refValue({ type: 'AWS::SNS::Topic', physicalId: 'arn:x', attributes: { TopicArn: 'arn:aws:sns:eu-west-1:1:t' } }),
    ).toBe('arn:aws:sns:eu-west-1:1:t');
  });

  it('every attribute the spec lists gets a realistic value', () => {
    const bucket = attributeValues({
      type: 'AWS::S3::Bucket',
      physicalId: 'my-bucket',
      name: 'my-bucket',
      properties: {},
      ctx,
      random,
    });
    expect(bucket).toMatchObject({
      Arn: 'arn:aws:s3:::my-bucket',
      DomainName: 'my-bucket.s3.amazonaws.com',
      RegionalDomainName: 'my-bucket.s3.eu-west-1.amazonaws.com',
      WebsiteURL: 'http://my-bucket.s3-website-eu-west-1.amazonaws.com',
    });
    const role = attributeValues({
      type: 'AWS::IAM::Role',
      physicalId: 'app',
      name: 'app',
      properties: { Path: '/svc/' },
      ctx,
      random,
    });
    expect(role.Arn).toBe('arn:aws:iam::123456789012:role/svc/app');
    expect(role.RoleId).toMatch(/^AROA[A-Z0-9]{17}$/);
    const db = attributeValues({
      type: 'AWS::RDS::DBInstance',
      physicalId: 'db1',
      name: 'db1',
      properties: { Engine: 'postgres' },
      ctx,
      random,
    });
    expect(db['Endpoint.Port']).toBe('5432');
    expect(db['Endpoint.Address']).toMatch(/^db1\.c[a-z0-9]{11}\.eu-west-1\.rds\.amazonaws\.com$/);
  });

  it('an attribute the type lacks is not supported; custom resources support any', () => {
    expect(supportsAttribute('AWS::SQS::Queue', 'Arn')).toBe(true);
    expect(supportsAttribute('AWS::SQS::Queue', 'Colour')).toBe(false);
    expect(supportsAttribute('Custom::Thing', 'Anything')).toBe(true);
  });
});

describe('replacementProperties', () => {
  it.each([
    [
      'AWS::DynamoDB::Table',
      { TableName: 'a' },
      { TableName: 'b' },
      [{ property: 'TableName', requiresRecreation: 'Always' }],
    ],
    ['AWS::SQS::Queue', { VisibilityTimeout: 30 }, { VisibilityTimeout: 60 }, []],
    ['AWS::SQS::Queue', { VisibilityTimeout: 30 }, { VisibilityTimeout: '30' }, []],
    [
      'AWS::EC2::Instance',
      { AvailabilityZone: 'a' },
      { AvailabilityZone: 'b' },
      [{ property: 'AvailabilityZone', requiresRecreation: 'Always' }],
    ],
    [
      'AWS::RDS::DBInstance',
      { Engine: 'mysql' },
      { Engine: 'postgres' },
      [{ property: 'Engine', requiresRecreation: 'Conditionally' }],
    ],
  ])('%s %j → %j', (type, before, after, causes) => {
    expect(replacementProperties(type, before, after)).toEqual(causes);
  });
});
