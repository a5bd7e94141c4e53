// Every Fn::GetAtt value has the type the resource specification declares for it, for every type: lists are lists,
// numbers are numbers (times typed as numbers are epoch seconds), and attributes named as IPv4 addresses or CIDR
// blocks hold one. A new attribute of the spec is a new row of this table.
import { describe, expect, it } from 'vitest';
import { attributeValues, cryptoRandom, newIdentity } from '../../../resources/generic.js';
import { knownTypes, resourceSpec, type PropertyType } from '../../../resources/spec.js';
import { ipKind } from '../../../resources/generic/addresses.js';

const ctx = { account: '123456789012', region: 'us-east-1', partition: 'aws' };
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const CIDR = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\/\d{1,2}$/;

function shapeError(attr: string, type: PropertyType, value: unknown): string | undefined {
  const ok =
    {
      string: typeof value === 'string',
      integer: Number.isInteger(value),
      number: typeof value === 'number',
      boolean: typeof value === 'boolean',
      list: Array.isArray(value),
    }[type.kind as string] ?? true;
  if (!ok) return `${attr} is declared ${type.kind} but is ${JSON.stringify(value)}`;
  if (type.kind === 'string' && ipKind(attr) && !IPV4.test(value as string))
    return `${attr} is not an IPv4 address: ${String(value)}`;
  if (type.kind === 'string' && /(^|[a-z.])CidrBlock$/.test(attr) && !/Ipv6/.test(attr) && !CIDR.test(value as string))
    return `${attr} is not a CIDR block: ${String(value)}`;
  return undefined;
}

/**
 * Formats AWS shows for attributes (their Return values pages, the services' guides), checked on every type that
 * has them. Every attribute named as an ARN holds one.
 */
const ARN = /^arn:aws:[a-z0-9-]+:(us-east-1)?:(\d{12})?:.+/;
const FORMATS: Readonly<Partial<Record<string, Readonly<Partial<Record<string, RegExp>>>>>> = {
  'AWS::ECR::Repository': { RepositoryUri: /^123456789012\.dkr\.ecr\.us-east-1\.amazonaws\.com\/[^/]+$/ },
  'AWS::ApiGateway::RestApi': { RestApiId: /^[a-z0-9]{10}$/, RootResourceId: /^[a-z0-9]{10}$/ },
  'AWS::ApiGatewayV2::Api': {
    ApiId: /^[a-z0-9]{10}$/,
    ApiEndpoint: /^https:\/\/[a-z0-9]{10}\.execute-api\.us-east-1\.amazonaws\.com$/,
  },
  'AWS::S3Tables::TableBucket': { TableBucketARN: /^arn:aws:s3tables:us-east-1:123456789012:bucket\/[^/]+$/ },
  'AWS::S3Tables::Table': {
    TableARN: /^arn:aws:s3tables:us-east-1:123456789012:bucket\/[^/]+\/table\/[0-9a-f-]{36}$/,
  },
  'AWS::SQS::Queue': { QueueUrl: /^https:\/\/sqs\.us-east-1\.amazonaws\.com\/123456789012\/[^/]+$/ },
};

function formatError(type: string, attr: string, kind: string, value: unknown): string | undefined {
  const format = FORMATS[type]?.[attr] ?? (kind === 'string' && /(Arn|ARN)$/.test(attr) ? ARN : undefined);
  return format && !format.test(String(value)) ? `${attr} is not in AWS's format: ${String(value)}` : undefined;
}

const ROWS = knownTypes().filter((t) => Object.keys(resourceSpec(t)!.attributes).length > 0);

describe('attribute values have the declared type and shape', () => {
  it('covers the whole specification', () => {
    expect(ROWS.length).toBeGreaterThan(1000);
  });

  it('every type named in FORMATS has the attributes it checks', () => {
    for (const [type, formats] of Object.entries(FORMATS))
      for (const attr of Object.keys(formats ?? {}))
        expect(resourceSpec(type)?.attributes[attr], `${type}.${attr}`).toBeDefined();
  });

  it.each(ROWS)('%s', (type) => {
    const identity = newIdentity({
      type,
      logicalId: 'Res',
      stackName: 'shapes',
      properties: {},
      ctx,
      random: cryptoRandom,
    });
    const values = attributeValues({
      type,
      physicalId: identity.physicalId,
      name: identity.name,
      properties: {},
      ctx,
      random: cryptoRandom,
    });
    const errors = Object.entries(resourceSpec(type)!.attributes).flatMap(
      ([attr, t]) => shapeError(attr, t, values[attr]) ?? formatError(type, attr, t.kind, values[attr]) ?? [],
    );
    expect(errors).toEqual([]);
  });
});
