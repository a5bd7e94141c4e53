// The control API's catalogue of public third-party extensions (docs/registry.md): the ones ActivateType can
// activate in any account, beside the two built-in examples. GET lists them; POST adds (or replaces) one.
import type { FastifyInstance } from 'fastify';
import type { CatalogueEntry, ExtensionCategory } from '../../storage/index.js';
import { CATEGORIES } from '../../state-machine/registry/arns.js';
import { catalogueOf } from '../../state-machine/registry/catalogue.js';
import { checkSchema } from '../../state-machine/registry/schemaRules.js';
import { PREFIX, isObject, jsonBody, sendError, type ControlDeps } from './controlHttp.js';

const FIELDS = ['type', 'typeName', 'publisherId', 'publisherName', 'schema', 'publicVersionNumber'];
const TYPE_NAME = /^[A-Za-z0-9]{2,64}::[A-Za-z0-9]{2,64}::[A-Za-z0-9]{2,64}(::MODULE)?$/;

/** The entry a body describes, or the 400 message saying what is wrong with it. */
function entryOf(body: Record<string, unknown>, now: string): CatalogueEntry | string {
  const extra = Object.keys(body).find((k) => !FIELDS.includes(k));
  if (extra) return `unknown field ${extra}; allowed: ${FIELDS.join(', ')}`;
  const type = body.type ?? 'RESOURCE';
  if (!CATEGORIES.includes(type as ExtensionCategory)) return `type must be one of ${CATEGORIES.join(', ')}`;
  if (typeof body.typeName !== 'string' || !TYPE_NAME.test(body.typeName))
    return `typeName must look like Org::Service::Type (got ${JSON.stringify(body.typeName)})`;
  if (body.typeName.startsWith('AWS::')) return 'typeName must not be in the AWS:: namespace';
  if (typeof body.publisherId !== 'string' || !/^[0-9a-zA-Z]{12,40}$/.test(body.publisherId))
    return 'publisherId must be 12 to 40 letters and digits';
  const version = body.publicVersionNumber ?? '1.0.0';
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+$/.test(version)) return 'publicVersionNumber looks like 1.0.0';
  if (body.publisherName !== undefined && typeof body.publisherName !== 'string')
    return 'publisherName must be a string';
  const text = isObject(body.schema) ? JSON.stringify(body.schema) : body.schema;
  if (typeof text !== 'string') return 'schema must be the extension schema (a JSON object, or its text)';
  const checked = checkSchema(type as ExtensionCategory, body.typeName, text);
  if ('failure' in checked) return `schema: ${checked.failure}`;
  return {
    category: type as ExtensionCategory,
    typeName: body.typeName,
    publisherId: body.publisherId,
    publisherName: body.publisherName,
    description: checked.schema.description as string,
    schema: text,
    publicVersionNumber: version,
    timeCreated: now,
    sourceUrl: typeof checked.schema.sourceUrl === 'string' ? checked.schema.sourceUrl : undefined,
    documentationUrl: typeof checked.schema.documentationUrl === 'string' ? checked.schema.documentationUrl : undefined,
  };
}

export function registerRegistryApi(app: FastifyInstance, deps: ControlDeps): void {
  app.get(`${PREFIX}/registry/public-types`, async () => ({
    types: catalogueOf(deps.store).map(({ schema, ...rest }) => ({ ...rest, schema: JSON.parse(schema) as unknown })),
  }));
  app.post(`${PREFIX}/registry/public-types`, async (req, reply) => {
    const parsed = jsonBody(req);
    if ('error' in parsed) return sendError(reply, 400, parsed.error);
    const entry = entryOf(parsed.body, deps.engine.deps.clock.now().toISOString());
    if (typeof entry === 'string') return sendError(reply, 400, entry);
    deps.store.registry.saveEntry(entry);
    return reply.status(201).send({ type: entry.category, typeName: entry.typeName, publisherId: entry.publisherId });
  });
}
