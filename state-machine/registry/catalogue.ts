// The public third-party extensions ActivateType activates from: two built-in examples (a resource and a hook), and
// whatever the control API adds (POST /_cfn-local/registry/public-types, docs/registry.md). AWS's own types are the
// resource specification's (typeSchemas.ts), not entries here.
import type { CatalogueEntry, ExtensionCategory, ReadonlyStore } from '../../storage/index.js';

/** The built-in examples' publisher: an id of AWS's form (40 hex digits), ours. */
export const EXAMPLE_PUBLISHER_ID = '0e5a1f7c3d2b4a6980e5a1f7c3d2b4a6980e5a1f';
const BUILT_IN_TIME = '2024-01-01T00:00:00.000Z';

const MONITOR_SCHEMA = {
  typeName: 'Example::Monitoring::Monitor',
  description: 'A monitor that alerts when its query crosses a threshold (an example third-party resource type).',
  sourceUrl: 'https://github.com/aws-cloudformation/cloudformation-cli',
  properties: {
    Id: { type: 'string', description: 'The monitor id.' },
    Arn: { type: 'string' },
    Name: { type: 'string', minLength: 1, maxLength: 128 },
    Query: { type: 'string' },
    Threshold: { type: 'number' },
    Tags: { type: 'array', items: { $ref: '#/definitions/Tag' } },
  },
  definitions: {
    Tag: {
      type: 'object',
      properties: { Key: { type: 'string' }, Value: { type: 'string' } },
      required: ['Key', 'Value'],
      additionalProperties: false,
    },
  },
  additionalProperties: false,
  required: ['Name', 'Query'],
  readOnlyProperties: ['/properties/Id', '/properties/Arn'],
  createOnlyProperties: ['/properties/Name'],
  primaryIdentifier: ['/properties/Id'],
  tagging: { taggable: true, tagProperty: '/properties/Tags' },
  handlers: {
    create: { permissions: [] },
    read: { permissions: [] },
    update: { permissions: [] },
    delete: { permissions: [] },
    list: { permissions: [] },
  },
};

const HOOK_SCHEMA = {
  typeName: 'Example::Security::BucketEncryptionHook',
  description: 'Checks that S3 buckets are encrypted before they are created or updated (an example third-party hook).',
  sourceUrl: 'https://github.com/aws-cloudformation/cloudformation-cli',
  typeConfiguration: {
    properties: { EncryptionAlgorithm: { type: 'string', default: 'AES256' } },
    additionalProperties: false,
  },
  required: [],
  handlers: {
    preCreate: { targetNames: ['AWS::S3::Bucket'], permissions: [] },
    preUpdate: { targetNames: ['AWS::S3::Bucket'], permissions: [] },
  },
  additionalProperties: false,
};

const entry = (category: ExtensionCategory, schema: { typeName: string; description: string }): CatalogueEntry => ({
  category,
  typeName: schema.typeName,
  publisherId: EXAMPLE_PUBLISHER_ID,
  publisherName: 'cfn-local examples',
  description: schema.description,
  schema: JSON.stringify(schema),
  publicVersionNumber: '1.0.0',
  timeCreated: BUILT_IN_TIME,
});

export const BUILT_IN_CATALOGUE: readonly CatalogueEntry[] = [
  entry('RESOURCE', MONITOR_SCHEMA),
  entry('HOOK', HOOK_SCHEMA),
];

/** Every public third-party extension: the built-in ones, then those added (an added one replaces a built-in). */
export function catalogueOf(store: Pick<ReadonlyStore, 'registry'>): CatalogueEntry[] {
  const added = store.registry.catalogue();
  const key = (e: CatalogueEntry) => `${e.category} ${e.typeName}`;
  const addedKeys = new Set(added.map(key));
  return [...BUILT_IN_CATALOGUE.filter((e) => !addedKeys.has(key(e))), ...added];
}
