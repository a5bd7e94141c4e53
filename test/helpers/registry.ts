// Registry fixtures: a handler package zipped as `cfn submit` zips it (schema.json at the root), uploaded to
// cfn-local's S3 store, and a registration waited for until it settles.
import { zipSync, strToU8 } from 'fflate';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import {
  DescribeTypeRegistrationCommand,
  RegisterTypeCommand,
  type CloudFormationClient,
  type DescribeTypeRegistrationCommandOutput,
} from '@aws-sdk/client-cloudformation';

export const WIDGET_SCHEMA = {
  typeName: 'MyOrg::Widgets::Widget',
  description: 'A widget: an example private resource type.',
  sourceUrl: 'https://example.com/widgets',
  properties: {
    Id: { type: 'string' },
    Arn: { type: 'string' },
    Name: { type: 'string' },
    Size: { type: 'integer' },
    Color: { type: 'string', enum: ['red', 'blue'] },
  },
  additionalProperties: false,
  required: ['Size'],
  readOnlyProperties: ['/properties/Id', '/properties/Arn'],
  createOnlyProperties: ['/properties/Name'],
  primaryIdentifier: ['/properties/Id'],
  handlers: {
    create: { permissions: [] },
    read: { permissions: [] },
    update: { permissions: [] },
    delete: { permissions: [] },
  },
};

export const HOOK_SCHEMA = {
  typeName: 'MyOrg::Checks::BucketHook',
  description: 'Checks buckets before they are made.',
  typeConfiguration: { properties: { Strict: { type: 'boolean' } }, additionalProperties: false },
  required: [],
  handlers: { preCreate: { targetNames: ['AWS::S3::Bucket'], permissions: [] } },
  additionalProperties: false,
};

/** A zip with schema.json (and the other files `cfn submit` adds) at its root. */
export function handlerPackage(schema: object, file = 'schema.json'): Uint8Array {
  return zipSync({
    [file]: strToU8(JSON.stringify(schema)),
    '.rpdk-config': strToU8('{}'),
    'src/handler.py': strToU8('# handler code'),
  });
}

export async function uploadPackage(s3: S3Client, bucket: string, key: string, body: Uint8Array): Promise<string> {
  await s3.send(new CreateBucketCommand({ Bucket: bucket })).catch(() => undefined);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  return `s3://${bucket}/${key}`;
}

/** Polls DescribeTypeRegistration (bounded) until the registration leaves IN_PROGRESS. */
export async function settledRegistration(
  client: CloudFormationClient,
  token: string,
): Promise<DescribeTypeRegistrationCommandOutput> {
  const end = Date.now() + 10_000;
  for (;;) {
    const out = await client.send(new DescribeTypeRegistrationCommand({ RegistrationToken: token }));
    if (out.ProgressStatus !== 'IN_PROGRESS') return out;
    if (Date.now() > end) throw new Error(`registration ${token} still IN_PROGRESS`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function registerAndWait(
  client: CloudFormationClient,
  s3: S3Client,
  type: 'RESOURCE' | 'HOOK' | 'MODULE',
  schema: { typeName: string },
  key = `${schema.typeName.replace(/::/g, '-')}.zip`,
) {
  const url = await uploadPackage(s3, 'registry-packages', key, handlerPackage(schema));
  const { RegistrationToken } = await client.send(
    new RegisterTypeCommand({ Type: type, TypeName: schema.typeName, SchemaHandlerPackage: url }),
  );
  return settledRegistration(client, RegistrationToken!);
}
