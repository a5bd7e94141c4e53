// What a registration checks of the schema it read, before the version is made: the registry's meta-schema's
// rules that decide whether cfn-local can serve the type (provider.definition.schema.v1.json: typeName, description,
// properties, primaryIdentifier and additionalProperties false for a resource; handlers' targetNames for a hook).
// https://docs.aws.amazon.com/cloudformation-cli/latest/userguide/resource-type-schema.html
import type { ExtensionCategory } from '../../storage/index.js';
import { isObject } from '../../domain/values.js';

/** The parsed schema, or the reason the registration fails. */
export function checkSchema(
  category: ExtensionCategory,
  typeName: string,
  text: string,
): { schema: Record<string, unknown> } | { failure: string } {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch {
    return { failure: 'The schema is not valid JSON' };
  }
  if (!isObject(schema)) return { failure: 'The schema must be a JSON object' };
  if (schema.typeName !== typeName) {
    return { failure: `The schema's typeName ${JSON.stringify(schema.typeName)} does not match ${typeName}` };
  }
  if (typeof schema.description !== 'string') return { failure: '#: required key [description] not found' };
  if (category === 'RESOURCE') {
    if (!isObject(schema.properties)) return { failure: '#: required key [properties] not found' };
    if (!Array.isArray(schema.primaryIdentifier) || !schema.primaryIdentifier.length)
      return { failure: '#: required key [primaryIdentifier] not found' };
    if (schema.additionalProperties !== false) return { failure: '#/additionalProperties: false was expected' };
  }
  if (category === 'HOOK' && !isObject(schema.handlers)) return { failure: '#: required key [handlers] not found' };
  return { schema };
}

/** The provisioning type AWS gives a resource schema: from the handlers it declares. */
export function provisioningTypeOf(schema: Record<string, unknown>): string {
  const handlers = isObject(schema.handlers) ? schema.handlers : {};
  if (!('create' in handlers)) return 'NON_PROVISIONABLE';
  return 'update' in handlers ? 'FULLY_MUTABLE' : 'IMMUTABLE';
}
