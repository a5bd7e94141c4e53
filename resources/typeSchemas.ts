// The registry schema (the JSON resource schema DescribeType returns) of an AWS type, written from the resource
// specification cfn-local ships (spec.ts): properties and definitions with their JSON types and value sets,
// required, readOnlyProperties (the Fn::GetAtt attributes), createOnlyProperties (those whose change replaces),
// primaryIdentifier and tagging. The specification has no descriptions or handler permissions: those are left out.
import { allResourceSpecs, resourceSpec, type PropertySpecs, type PropertyType, type ResourceSpec } from './spec.js';

type Schema = Record<string, unknown>;

const TAG_DEFINITION = {
  type: 'object',
  additionalProperties: false,
  properties: { Key: { type: 'string' }, Value: { type: 'string' } },
  required: ['Key', 'Value'],
};

function jsonType(t: PropertyType): Schema {
  switch (t.kind) {
    case 'list':
      return { type: 'array', items: jsonType(t.element) };
    case 'map':
      return { type: 'object', patternProperties: { '.+': jsonType(t.element) }, additionalProperties: false };
    case 'ref':
      return { $ref: `#/definitions/${t.name}` };
    case 'union':
      return { anyOf: t.types.map(jsonType) };
    case 'json':
      return { type: 'object' };
    case 'date-time':
      return { type: 'string', format: 'date-time' };
    case 'tag':
      return { $ref: '#/definitions/Tag' };
    case 'null':
      return {};
    default:
      return { type: t.kind };
  }
}

function objectSchema(properties: PropertySpecs): Schema {
  const required = Object.keys(properties).filter((p) => properties[p].required);
  return {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [
        name,
        p.allowedValues ? { ...jsonType(p.type), enum: p.allowedValues } : jsonType(p.type),
      ]),
    ),
    ...(required.length ? { required } : {}),
  };
}

const pointer = (name: string) => `/properties/${name.split('.').join('/')}`;

function usesTag(spec: ResourceSpec): boolean {
  return JSON.stringify([spec.properties, spec.definitions, spec.attributes]).includes('"kind":"tag"');
}

/** The schema of an AWS type as DescribeType returns it (a JSON object), or undefined for an unknown type. */
export function awsTypeSchema(typeName: string): Schema | undefined {
  const spec = resourceSpec(typeName);
  if (!spec) return undefined;
  const body = objectSchema(spec.properties);
  const properties = body.properties as Schema;
  for (const [attr, type] of Object.entries(spec.attributes)) {
    if (!attr.includes('.') && !(attr in properties)) properties[attr] = jsonType(type);
  }
  const definitions: Schema = Object.fromEntries(
    Object.entries(spec.definitions).map(([name, d]) => [name, objectSchema(d)]),
  );
  if (usesTag(spec) && !('Tag' in definitions)) definitions.Tag = TAG_DEFINITION;
  return {
    typeName,
    description: `Resource Type definition for ${typeName}`,
    ...(Object.keys(definitions).length ? { definitions } : {}),
    properties,
    additionalProperties: false,
    ...(body.required ? { required: body.required } : {}),
    ...(Object.keys(spec.attributes).length ? { readOnlyProperties: Object.keys(spec.attributes).map(pointer) } : {}),
    ...(spec.createOnlyProperties.length ? { createOnlyProperties: spec.createOnlyProperties.map(pointer) } : {}),
    ...(spec.primaryIdentifier.length ? { primaryIdentifier: spec.primaryIdentifier.map(pointer) } : {}),
    ...(spec.tagging ? { tagging: { taggable: true, tagProperty: pointer(spec.tagging.property) } } : {}),
  };
}

/** FULLY_MUTABLE, or IMMUTABLE for a type every one of whose properties replaces it when changed. */
export function awsProvisioningType(typeName: string): string {
  const spec = resourceSpec(typeName);
  return spec ? provisioningOf(spec) : 'FULLY_MUTABLE';
}

function provisioningOf(spec: ResourceSpec): string {
  const names = Object.keys(spec.properties);
  return names.length && names.every((n) => spec.properties[n].replacement === 'Always')
    ? 'IMMUTABLE'
    : 'FULLY_MUTABLE';
}

/** Every AWS type's name and provisioning type, sorted by name (ListTypes with Visibility PUBLIC). */
export function awsTypesListing(): { typeName: string; provisioningType: string }[] {
  return allResourceSpecs()
    .map((spec) => ({ typeName: spec.type, provisioningType: provisioningOf(spec) }))
    .sort((a, b) => (a.typeName < b.typeName ? -1 : a.typeName > b.typeName ? 1 : 0));
}
