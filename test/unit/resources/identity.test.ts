import { describe, expect, it } from 'vitest';
import {
  attributeValues,
  newIdentity,
  physicalIdFor,
  refValue,
  seededRandom,
  supportsAttribute,
  type AccountContext,
} from '../../../resources/generic.js';

const ctx: AccountContext = { account: '123456789012', region: 'us-east-1', partition: 'aws' };
const now = new Date('2024-05-01T12:00:00.000Z');

function create(type: string, properties: Record<string, unknown> = {}, seed = 1) {
  const random = seededRandom(seed);
  const id = newIdentity({ type, logicalId: 'MyResource', stackName: 'my-stack', properties, ctx, random });
  const attributes = attributeValues({ type, physicalId: id.physicalId, name: id.name, properties, ctx, random, now });
  return { ...id, attributes, ref: refValue({ type, physicalId: id.physicalId, attributes }) };
}

describe('physicalIdFor', () => {
  it('is the name for most named types', () => {
    for (const type of [
      'AWS::S3::Bucket',
      'AWS::IAM::Role',
      'AWS::Lambda::Function',
      'AWS::SSM::Parameter',
      'AWS::Logs::LogGroup',
      'AWS::DynamoDB::Table',
    ]) {
      expect(physicalIdFor(type, 'thing', ctx)).toBe('thing');
    }
  });

  it('is the queue URL for SQS and the topic ARN for SNS', () => {
    expect(physicalIdFor('AWS::SQS::Queue', 'q', ctx)).toBe('https://sqs.us-east-1.amazonaws.com/123456789012/q');
    expect(physicalIdFor('AWS::SNS::Topic', 't', ctx)).toBe('arn:aws:sns:us-east-1:123456789012:t');
    expect(physicalIdFor('AWS::SQS::Queue', 'q', { ...ctx, region: 'cn-north-1', partition: 'aws-cn' })).toBe(
      'https://sqs.cn-north-1.amazonaws.com.cn/123456789012/q',
    );
  });

  it('is the ARN for types identified by their ARN (Step Functions state machine)', () => {
    expect(physicalIdFor('AWS::StepFunctions::StateMachine', 'sm', ctx)).toBe(
      'arn:aws:states:us-east-1:123456789012:stateMachine:sm',
    );
  });
});

describe('Ref and Fn::GetAtt values', () => {
  it('AWS::S3::Bucket: Ref is the bucket name; Arn and domain names follow it', () => {
    const b = create('AWS::S3::Bucket', { BucketName: 'my-bucket' });
    expect(b.ref).toBe('my-bucket');
    expect(b.attributes).toMatchObject({
      Arn: 'arn:aws:s3:::my-bucket',
      DomainName: 'my-bucket.s3.amazonaws.com',
      RegionalDomainName: 'my-bucket.s3.us-east-1.amazonaws.com',
      DualStackDomainName: 'my-bucket.s3.dualstack.us-east-1.amazonaws.com',
      WebsiteURL: 'http://my-bucket.s3-website-us-east-1.amazonaws.com',
    });
  });

  it('AWS::SQS::Queue: Ref is the queue URL; QueueName and Arn use the generated name', () => {
    const q = create('AWS::SQS::Queue');
    expect(q.name).toMatch(/^my-stack-MyResource-[A-Za-z0-9]{12}$/);
    expect(q.ref).toBe(`https://sqs.us-east-1.amazonaws.com/123456789012/${q.name}`);
    expect(q.attributes).toEqual({
      QueueUrl: q.ref,
      QueueName: q.name,
      Arn: `arn:aws:sqs:us-east-1:123456789012:${q.name}`,
    });
  });

  it('AWS::SNS::Topic: Ref is the topic ARN', () => {
    const t = create('AWS::SNS::Topic', { TopicName: 'alerts' });
    expect(t.ref).toBe('arn:aws:sns:us-east-1:123456789012:alerts');
    expect(t.attributes).toEqual({ TopicArn: t.ref, TopicName: 'alerts' });
  });

  it('AWS::IAM::Role: Ref is the role name; Arn includes the path; RoleId looks like AROA…', () => {
    const r = create('AWS::IAM::Role', { RoleName: 'app', Path: '/service/' });
    expect(r.ref).toBe('app');
    expect(r.attributes.Arn).toBe('arn:aws:iam::123456789012:role/service/app');
    expect(r.attributes.RoleId).toMatch(/^AROA[A-Z0-9]{17}$/);
  });

  it('AWS::SSM::Parameter: Ref is the name; Type and Value echo the properties', () => {
    const p = create('AWS::SSM::Parameter', { Name: '/app/db/host', Type: 'String', Value: 'db.local' });
    expect(p.ref).toBe('/app/db/host');
    expect(p.attributes).toEqual({
      Type: 'String',
      Value: 'db.local',
      Arn: 'arn:aws:ssm:us-east-1:123456789012:parameter/app/db/host',
    });
    expect(create('AWS::SSM::Parameter', { Type: 'String', Value: 'v' }).ref).toMatch(
      /^CFN-MyResource-[A-Za-z0-9]{12}$/,
    );
  });

  it('AWS::Lambda::Function and AWS::DynamoDB::Table: ARNs from the spec templates', () => {
    expect(create('AWS::Lambda::Function', { FunctionName: 'fn' }).attributes.Arn).toBe(
      'arn:aws:lambda:us-east-1:123456789012:function:fn',
    );
    const table = create('AWS::DynamoDB::Table', { TableName: 'orders' });
    expect(table.attributes.Arn).toBe('arn:aws:dynamodb:us-east-1:123456789012:table/orders');
    expect(table.attributes.StreamArn).toBe(
      'arn:aws:dynamodb:us-east-1:123456789012:table/orders/stream/2024-05-01T12:00:00.000',
    );
  });

  it('AWS::EC2::VPC: Ref is vpc- and 17 hex digits; defaults get their own ids', () => {
    const vpc = create('AWS::EC2::VPC', { CidrBlock: '10.0.0.0/16' });
    expect(vpc.ref).toMatch(/^vpc-[0-9a-f]{17}$/);
    expect(vpc.attributes.VpcId).toBe(vpc.ref);
    expect(vpc.attributes.CidrBlock).toBe('10.0.0.0/16');
    expect(vpc.attributes.DefaultSecurityGroup).toMatch(/^sg-[0-9a-f]{17}$/);
    expect(vpc.attributes.DefaultNetworkAcl).toMatch(/^acl-[0-9a-f]{17}$/);
    expect(vpc.attributes.CidrBlockAssociations).toEqual([expect.stringMatching(/^vpc-cidr-assoc-[0-9a-f]{17}$/)]);
  });

  it('AWS::EC2::Subnet and SecurityGroup: ids in EC2 format, properties echoed', () => {
    const subnet = create('AWS::EC2::Subnet', { VpcId: 'vpc-0123456789abcdef0', CidrBlock: '10.0.1.0/24' });
    expect(subnet.ref).toMatch(/^subnet-[0-9a-f]{17}$/);
    expect(subnet.attributes).toMatchObject({
      VpcId: 'vpc-0123456789abcdef0',
      AvailabilityZone: 'us-east-1a',
      AvailabilityZoneId: 'use1-az1',
    });
    const sg = create('AWS::EC2::SecurityGroup', { GroupDescription: 'web' });
    expect(sg.ref).toMatch(/^sg-[0-9a-f]{17}$/);
    expect(sg.attributes.GroupId).toBe(sg.ref);
  });

  it('AWS::RDS::DBInstance: Endpoint.Address and Endpoint.Port by engine', () => {
    const db = create('AWS::RDS::DBInstance', { DBInstanceIdentifier: 'orders', Engine: 'postgres' });
    expect(db.attributes['Endpoint.Address']).toMatch(/^orders\.c[a-z0-9]{11}\.us-east-1\.rds\.amazonaws\.com$/);
    expect(db.attributes['Endpoint.Port']).toBe('5432');
    expect(db.attributes.Endpoint).toMatchObject({ Address: db.attributes['Endpoint.Address'], Port: '5432' });
    expect(db.attributes.DBInstanceArn).toBe('arn:aws:rds:us-east-1:123456789012:db:orders');
    const generated = create('AWS::RDS::DBInstance', { Engine: 'mysql' });
    expect(generated.ref).toMatch(/^my-stack-myresource-[a-z0-9]{12}$/);
    expect(generated.attributes['Endpoint.Port']).toBe('3306');
  });

  it('AWS::Logs::LogGroup Arn ends with :*', () => {
    expect(create('AWS::Logs::LogGroup', { LogGroupName: '/aws/lambda/fn' }).attributes.Arn).toBe(
      'arn:aws:logs:us-east-1:123456789012:log-group:/aws/lambda/fn:*',
    );
  });

  it('AWS::KMS::Key: Ref is a UUID', () => {
    expect(create('AWS::KMS::Key').ref).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('AWS::EC2::Instance: addresses and DNS names agree', () => {
    const i = create('AWS::EC2::Instance', { ImageId: 'ami-1' });
    expect(i.ref).toMatch(/^i-[0-9a-f]{17}$/);
    const ip = i.attributes.PrivateIp as string;
    expect(i.attributes.PrivateDnsName).toBe(`ip-${ip.replace(/\./g, '-')}.ec2.internal`);
  });

  it('gives obscure types a value for every attribute, and is deterministic for a given seed', () => {
    const a = create('AWS::Bedrock::Agent', { AgentName: 'helper' }, 42);
    const b = create('AWS::Bedrock::Agent', { AgentName: 'helper' }, 42);
    expect(a).toEqual(b);
    for (const value of Object.values(a.attributes)) expect(value).toBeDefined();
    expect(a.attributes.AgentArn).toMatch(/^arn:aws:bedrock:us-east-1:123456789012:agent\//);
  });

  it('unknown types have no attributes and Ref is the physical id', () => {
    expect(
      attributeValues({ type: 'Custom::Thing', physicalId: 'p', properties: {}, ctx, random: seededRandom(1) }),
    ).toEqual({});
    expect(refValue({ type: 'Custom::Thing', physicalId: 'p' })).toBe('p');
  });
});

describe('supportsAttribute', () => {
  it('accepts the spec attributes, including dotted ones, and refuses others', () => {
    expect(supportsAttribute('AWS::S3::Bucket', 'Arn')).toBe(true);
    expect(supportsAttribute('AWS::RDS::DBInstance', 'Endpoint.Address')).toBe(true);
    expect(supportsAttribute('AWS::SSM::Parameter', 'Invalid')).toBe(false);
    expect(supportsAttribute('AWS::S3::Bucket', 'toString')).toBe(false);
  });

  it('accepts anything on custom resources and Outputs.* on nested stacks', () => {
    expect(supportsAttribute('Custom::Thing', 'Whatever')).toBe(true);
    expect(supportsAttribute('AWS::CloudFormation::CustomResource', 'Whatever')).toBe(true);
    expect(supportsAttribute('AWS::CloudFormation::Stack', 'Outputs.BucketName')).toBe(true);
  });
});
