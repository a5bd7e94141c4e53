import { describe, expect, it } from 'vitest';
import { isKnownType, knownTypes, parseType, resourceSpec, typeCount } from '../../../resources/spec.js';

describe('resourceSpec', () => {
  it('knows more than 1,500 CloudFormation resource types', () => {
    expect(typeCount()).toBeGreaterThan(1500);
    expect(knownTypes()).toContain('AWS::S3::Bucket');
  });

  it('returns undefined for types CloudFormation does not know', () => {
    expect(resourceSpec('AWS::S3::Bukket')).toBeUndefined();
    expect(isKnownType('AWS::S3::Bukket')).toBe(false);
    expect(isKnownType('AWS::SQS::Queue')).toBe(true);
  });

  it('describes AWS::S3::Bucket: name property, ARN template, attributes, replacement, tags, statefulness', () => {
    const s3 = resourceSpec('AWS::S3::Bucket')!;
    expect(s3.nameProperty).toBe('BucketName');
    expect(s3.primaryIdentifier).toEqual(['BucketName']);
    expect(s3.refIdentifier).toEqual(['BucketName']);
    expect(s3.arnTemplate).toBe('arn:${Partition}:s3:::${BucketName}');
    expect(Object.keys(s3.attributes)).toEqual(
      expect.arrayContaining(['Arn', 'DomainName', 'RegionalDomainName', 'WebsiteURL']),
    );
    expect(s3.createOnlyProperties).toContain('BucketName');
    expect(s3.createOnlyProperties).not.toContain('Tags');
    expect(s3.tagging).toEqual({ property: 'Tags', variant: 'standard' });
    expect(s3.isStateful).toBe(true);
    expect(s3.properties.Tags.type).toEqual({ kind: 'list', element: { kind: 'tag' } });
    expect(s3.properties.CorsConfiguration.type).toEqual({ kind: 'ref', name: 'CorsConfiguration' });
    expect(s3.definitions.CorsConfiguration.CorsRules.required).toBe(true);
  });

  it('derives the name property of common types', () => {
    const names: Record<string, string | undefined> = {
      'AWS::SQS::Queue': 'QueueName',
      'AWS::SNS::Topic': 'TopicName',
      'AWS::IAM::Role': 'RoleName',
      'AWS::Lambda::Function': 'FunctionName',
      'AWS::DynamoDB::Table': 'TableName',
      'AWS::Logs::LogGroup': 'LogGroupName',
      'AWS::SSM::Parameter': 'Name',
      'AWS::RDS::DBInstance': 'DBInstanceIdentifier',
      'AWS::Events::Rule': 'Name',
      'AWS::EC2::VPC': undefined,
      'AWS::EC2::SecurityGroup': undefined,
      'AWS::S3::BucketPolicy': undefined,
    };
    for (const [type, name] of Object.entries(names))
      expect([type, resourceSpec(type)!.nameProperty]).toEqual([type, name]);
  });

  it('keeps dotted GetAtt names with their types (AWS::RDS::DBInstance Endpoint.Address)', () => {
    const rds = resourceSpec('AWS::RDS::DBInstance')!;
    expect(rds.attributes['Endpoint.Address']).toEqual({ kind: 'string' });
    expect(rds.attributes['Endpoint.Port']).toEqual({ kind: 'string' });
    expect(rds.attributes.Endpoint).toEqual({ kind: 'ref', name: 'Endpoint' });
  });

  it('carries what Ref returns when it is not the primary identifier (cfnRefIdentifier)', () => {
    expect(resourceSpec('AWS::SQS::Queue')!.refIdentifier).toEqual(['QueueUrl']);
    expect(resourceSpec('AWS::ApiGateway::Stage')!.refIdentifier).toEqual(['StageName']);
  });

  it('marks conditional replacement (AWS::EC2::Instance BlockDeviceMappings) and required properties', () => {
    const ec2 = resourceSpec('AWS::EC2::Instance')!;
    expect(ec2.conditionalReplacementProperties).toContain('BlockDeviceMappings');
    expect(resourceSpec('AWS::SSM::Parameter')!.properties.Type.required).toBe(true);
  });

  it('reads obscure types too (Alexa::ASK::Skill, AWS::IoTFleetHub::Application without a primary identifier)', () => {
    expect(resourceSpec('Alexa::ASK::Skill')!.properties.VendorId).toMatchObject({
      required: true,
      replacement: 'Always',
    });
    expect(resourceSpec('AWS::IoTFleetHub::Application')!.primaryIdentifier).toEqual([]);
    expect(resourceSpec('AWS::Serverless::Function')!.requiredTransform).toBe('AWS::Serverless-2016-10-31');
  });

  it('caches parsed entries', () => {
    expect(resourceSpec('AWS::SNS::Topic')).toBe(resourceSpec('AWS::SNS::Topic'));
  });
});

describe('parseType', () => {
  it('parses lists, maps, references and unions', () => {
    expect(parseType('[#Tag')).toEqual({ kind: 'list', element: { kind: 'ref', name: 'Tag' } });
    expect(parseType('{s')).toEqual({ kind: 'map', element: { kind: 'string' } });
    expect(parseType('(j|s)')).toEqual({ kind: 'union', types: [{ kind: 'json' }, { kind: 'string' }] });
    expect(parseType('([#A|{i)')).toEqual({
      kind: 'union',
      types: [
        { kind: 'list', element: { kind: 'ref', name: 'A' } },
        { kind: 'map', element: { kind: 'integer' } },
      ],
    });
  });
});
