import { describe, expect, it } from 'vitest';
import { validateProperties } from '../../../resources/generic.js';

const REGISTRY = (id: string, ...messages: string[]) =>
  `Properties validation failed for resource ${id} with message: [${messages.join(', ')}]`;

describe('validateProperties (registry wording, everit messages)', () => {
  it('accepts valid properties', () => {
    expect(
      validateProperties('AWS::S3::Bucket', { BucketName: 'b', Tags: [{ Key: 'k', Value: 'v' }] }, 'B'),
    ).toBeUndefined();
    expect(validateProperties('AWS::S3::Bucket', undefined, 'B')).toBeUndefined();
  });

  it('reports a missing required key as AWS does for AWS::CloudTrail::Trail', () => {
    expect(validateProperties('AWS::CloudTrail::Trail', { S3BucketName: 'logs' }, 'CloudTrail')).toBe(
      REGISTRY('CloudTrail', '#: required key [IsLogging] not found'),
    );
  });

  it('reports nested extraneous keys with their pointer, one message per key (recorded S3 lifecycle rule)', () => {
    const props = {
      LifecycleConfiguration: {
        Rules: [
          { Status: 'Enabled', ExpirationInDays: 1 },
          { Status: 'Enabled', TransitionInDays: 30, StorageClass: 'GLACIER' },
        ],
      },
    };
    expect(validateProperties('AWS::S3::Bucket', props, 'VpcFlowLogsBucket')).toBe(
      REGISTRY(
        'VpcFlowLogsBucket',
        '#/LifecycleConfiguration/Rules/1: extraneous key [TransitionInDays] is not permitted',
        '#/LifecycleConfiguration/Rules/1: extraneous key [StorageClass] is not permitted',
      ),
    );
  });

  it('reports an extraneous key inside a list item (AWS::ApiGateway::Method MethodResponses)', () => {
    const props = {
      HttpMethod: 'GET',
      ResourceId: 'r',
      RestApiId: 'a',
      MethodResponses: [{ StatusCode: '200', ResponseHeaders: { 'Access-Control-Allow-Origin': true } }],
    };
    expect(validateProperties('AWS::ApiGateway::Method', props, 'CreatePostMethod')).toBe(
      REGISTRY('CreatePostMethod', '#/MethodResponses/0: extraneous key [ResponseHeaders] is not permitted'),
    );
  });

  it('reports wrong types: object for a list, list for a string, object for a string', () => {
    expect(
      validateProperties(
        'AWS::EC2::SecurityGroup',
        { GroupDescription: 'd', SecurityGroupIngress: { IpProtocol: 'tcp' } },
        'InstanceSecurityGroup',
      ),
    ).toBe(REGISTRY('InstanceSecurityGroup', '#/SecurityGroupIngress: expected type: JSONArray, found: JSONObject'));
    expect(validateProperties('AWS::Lambda::Function', { Code: {}, Role: ['arn'] }, 'PDFSizeApiLambdaFunction')).toBe(
      REGISTRY('PDFSizeApiLambdaFunction', '#/Role: expected type: String, found: JSONArray'),
    );
    expect(
      validateProperties(
        'AWS::Connect::ContactFlowModule',
        { InstanceArn: 'i', Name: 'n', Content: { Version: '2019-10-30' } },
        'ConnectContactFlowModule1',
      ),
    ).toBe(REGISTRY('ConnectContactFlowModule1', '#/Content: expected type: String, found: JSONObject'));
  });

  it("orders an object's problems as everit does: required, extraneous, then each property", () => {
    const result = validateProperties(
      'AWS::SNS::Topic',
      { Subscription: [{ Endpoint: 'e', Extra: 1 }], Bogus: 1, Tags: {} },
      'T',
    );
    expect(result).toBe(
      REGISTRY(
        'T',
        '#: extraneous key [Bogus] is not permitted',
        '#/Subscription/0: required key [Protocol] not found',
        '#/Subscription/0: extraneous key [Extra] is not permitted',
        '#/Tags: expected type: JSONArray, found: JSONObject',
      ),
    );
  });

  it('names the Java type it found: Integer, BigDecimal, Boolean, String', () => {
    expect(
      validateProperties('AWS::SQS::Queue', { DelaySeconds: 'soon', FifoQueue: 1, MaximumMessageSize: 1.5 }, 'Q'),
    ).toBe(
      REGISTRY(
        'Q',
        '#/DelaySeconds: expected type: Integer, found: String',
        '#/FifoQueue: expected type: Boolean, found: Integer',
        '#/MaximumMessageSize: expected type: Integer, found: BigDecimal',
      ),
    );
  });

  it('accepts what CloudFormation converts: numeric and boolean strings, numbers and booleans for strings', () => {
    const props = {
      DelaySeconds: '5',
      FifoQueue: 'true',
      ContentBasedDeduplication: 'FALSE',
      QueueName: 12345,
      KmsMasterKeyId: true,
    };
    expect(validateProperties('AWS::SQS::Queue', props, 'Q')).toBeUndefined();
  });

  it('accepts anything for json properties and for unions that include json', () => {
    expect(validateProperties('AWS::SQS::Queue', { RedrivePolicy: 'x' }, 'Q')).toBeUndefined();
    expect(validateProperties('AWS::SQS::Queue', { RedrivePolicy: { maxReceiveCount: 3 } }, 'Q')).toBeUndefined();
    expect(
      validateProperties('AWS::IAM::Role', { AssumeRolePolicyDocument: '{"Version":"2012-10-17"}' }, 'R'),
    ).toBeUndefined();
  });

  it('validates tags: Key is required, nothing else is allowed', () => {
    expect(validateProperties('AWS::SQS::Queue', { Tags: [{ Value: 'v', Owner: 'me' }] }, 'Q')).toBe(
      REGISTRY('Q', '#/Tags/0: required key [Key] not found', '#/Tags/0: extraneous key [Owner] is not permitted'),
    );
  });

  it('accepts read-only attribute names a template repeats, custom resources and unknown types', () => {
    expect(validateProperties('AWS::SQS::Queue', { Arn: 'arn:aws:sqs:…' }, 'Q')).toBeUndefined();
    expect(
      validateProperties('AWS::CloudFormation::CustomResource', { ServiceToken: 't', Anything: { a: 1 } }, 'C'),
    ).toBeUndefined();
    expect(validateProperties('Custom::Thing', { Whatever: 1 }, 'C')).toBeUndefined();
    expect(validateProperties('AWS::Nope::Nothing', { Whatever: 1 }, 'N')).toBeUndefined();
  });

  it('validates map values (AWS::Lambda::Function Environment Variables is a map of strings)', () => {
    expect(
      validateProperties(
        'AWS::Lambda::Function',
        { Code: {}, Role: 'r', Environment: { Variables: { A: { B: 1 } } } },
        'F',
      ),
    ).toBe(REGISTRY('F', '#/Environment/Variables/A: expected type: String, found: JSONObject'));
  });

  it('skips null values (an unresolved AWS::NoValue never reaches the handler)', () => {
    expect(validateProperties('AWS::SQS::Queue', { DelaySeconds: null }, 'Q')).toBeUndefined();
  });
});

describe('validateProperties (legacy wording)', () => {
  it('reports a missing required property of AWS::SSM::Parameter exactly as recorded from AWS', () => {
    expect(validateProperties('AWS::SSM::Parameter', { Value: 'abc123' }, 'MyParameter')).toBe(
      'Property validation failure: [The property {/Type} is required]',
    );
  });

  it('lists unsupported properties per object and type mismatches with legacy type names', () => {
    expect(validateProperties('AWS::SSM::Parameter', { Type: 'String', Value: ['a'], Region: 'x', Foo: 1 }, 'P')).toBe(
      'Property validation failure: [Encountered unsupported properties in {/}: [Region, Foo], Value of property {/Value} does not match type {String}]',
    );
    expect(validateProperties('AWS::SSM::Parameter', { Type: 'String', Value: 'v', Tags: [] }, 'P')).toBe(
      'Property validation failure: [Value of property {/Tags} does not match type {Map}]',
    );
  });
});
