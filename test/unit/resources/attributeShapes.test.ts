// Every Fn::GetAtt value has the type the resource specification declares for it, for every type: lists are lists,
// numbers are numbers (times typed as numbers are epoch seconds), and attributes named as IPv4 addresses or CIDR
// blocks hold one. A new attribute of the spec is a new row of this table. Every attribute whose Return values page
// shows a sample value (resources/documentedAttributes.json) has the sample's format: an ARN's service, region and
// account fields and resource type, a host's fixed labels, an id's prefix, length and alphabet.
import { describe, expect, it } from 'vitest';
import { attributeValues, cryptoRandom, newIdentity } from '../../../resources/generic.js';
import { knownTypes, resourceSpec, type PropertyType } from '../../../resources/spec.js';
import { ipKind } from '../../../resources/generic/addresses.js';
import { DOCUMENTED, sampleFormat } from '../../helpers/documentedSamples.js';
import { provisionAlone } from '../../helpers/provisionAlone.js';

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

/**
 * Attributes whose sample on their Return values page shows a format cfn-local does not follow, and why: the page
 * contradicts itself or the service's own format (the schema's ARN template).
 */
const TEMPLATE = "the schema's ARN template (the service's format) over the page's sample";
const SAMPLE_EXEMPT: Readonly<Record<string, string>> = {
  'AWS::ApiGateway::Account.Id': "the page's `abc123` contradicts its Ref sample (`mysta-accou-01234b567890example`)",
  'AWS::ApiGateway::ApiKey.APIKeyId': "`abc123` is a placeholder; the page's Ref sample `m2m1k7sybf` has 10 characters",
  'AWS::ApiGateway::UsagePlanKey.Id': "`abc123` is a placeholder; a usage plan key is identified by its API key's id",
  'AWS::CloudFront::CloudFrontOriginAccessIdentity.Id':
    "15 characters here, 14 in CloudFront's guide (`E2QWRUHEXAMPLE`)",
  'AWS::CloudFront::Distribution.Id': "15 characters here, 14 in CloudFront's guide (`E2QWRUHEXAMPLE`)",
  'AWS::EFS::MountTarget.Id': 'the sample is a file system id (`fs-…`); the Ref sample is a mount target id (`fsmt-…`)',
  'AWS::GameLift::Alias.AliasId': 'the sample is the alias ARN; the Ref sample is its id (`alias-<uuid>`)',
  'AWS::Backup::BackupPlan.BackupPlanArn': TEMPLATE,
  'AWS::CloudWatch::CompositeAlarm.Arn': TEMPLATE,
  'AWS::Location::Map.Arn': TEMPLATE,
  'AWS::Location::Map.MapArn': TEMPLATE,
  'AWS::Oam::Link.Arn': TEMPLATE,
  'AWS::Oam::Sink.Arn': TEMPLATE,
  'AWS::SageMaker::ModelCard.ModelCardArn': TEMPLATE,
  'AWS::ServiceDiscovery::HttpNamespace.Arn': TEMPLATE,
};

const SAMPLED = Object.entries(DOCUMENTED.types)
  .map(([type, d]) => {
    const spec = resourceSpec(type);
    const formats = Object.entries(d?.samples ?? {}).flatMap(([attr, sample]) => {
      const format = spec?.attributes[attr] && !SAMPLE_EXEMPT[`${type}.${attr}`] ? sampleFormat(sample) : undefined;
      return format ? [[attr, sample, format] as const] : [];
    });
    return [type, formats] as const;
  })
  .filter(([, formats]) => formats.length > 0);

describe("attribute values have the format of their Return values page's sample", () => {
  it('covers the samples that show a format', () => {
    expect(SAMPLED.length).toBeGreaterThan(150);
  });

  it('every exemption names a documented sample', () => {
    for (const key of Object.keys(SAMPLE_EXEMPT)) {
      const [type, attr] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.') + 1)];
      expect(DOCUMENTED.types[type]?.samples?.[attr], key).toBeDefined();
    }
  });

  it.each(SAMPLED)('%s', async (type, formats) => {
    const made = await provisionAlone(type);
    if (typeof made === 'string') throw new Error(made);
    const wrong = formats.filter(([attr, , format]) => !format.test(String(made.attributes[attr])));
    expect(wrong.map(([attr, sample]) => `${attr} ${String(made.attributes[attr])} (sample ${sample})`)).toEqual([]);
  });
});
