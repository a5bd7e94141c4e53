// A registered extension's resource schema (the registry's JSON schema) read as the ResourceSpec the generic provider
// is driven by: createOnlyProperties replace, readOnlyProperties are Fn::GetAtt attributes, Ref is the primary
// identifier. https://docs.aws.amazon.com/cloudformation-cli/latest/userguide/resource-type-schema.html
import type { PropertySpec, PropertySpecs, PropertyType, ResourceSpec } from './spec.js';
import { isList } from '../domain/values.js';

type SchemaNode = Record<string, unknown>;

const SCALARS: Readonly<Record<string, PropertyType>> = {
  string: { kind: 'string' },
  integer: { kind: 'integer' },
  number: { kind: 'number' },
  boolean: { kind: 'boolean' },
  object: { kind: 'json' },
  array: { kind: 'list', element: { kind: 'json' } },
  null: { kind: 'null' },
};

const isNode = (v: unknown): v is SchemaNode => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `/properties/A` → `A`; `/properties/A/B` → `A.B` (the dotted form Fn::GetAtt uses). */
export function pointerName(pointer: string): string | undefined {
  if (!pointer.startsWith('/properties/')) return undefined;
  return pointer.slice('/properties/'.length).split('/').join('.');
}

const pointers = (schema: SchemaNode, key: string): string[] =>
  (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : [])
    .map((p) => (typeof p === 'string' ? pointerName(p) : undefined))
    .filter((p): p is string => p !== undefined);

function refName(node: SchemaNode): string | undefined {
  const ref = node.$ref;
  return typeof ref === 'string' && ref.startsWith('#/definitions/') ? ref.slice('#/definitions/'.length) : undefined;
}

function typeOf(node: unknown, objectDefs: ReadonlySet<string>, defs: SchemaNode): PropertyType {
  if (!isNode(node)) return { kind: 'json' };
  const ref = refName(node);
  if (ref !== undefined) {
    if (objectDefs.has(ref)) return { kind: 'ref', name: ref };
    return typeOf(defs[ref], new Set([...objectDefs].filter((d) => d !== ref)), defs);
  }
  const type = node.type;
  if (isList(type)) return { kind: 'union', types: type.map((t) => typeOf({ ...node, type: t }, objectDefs, defs)) };
  if (type === 'array') return { kind: 'list', element: typeOf(node.items, objectDefs, defs) };
  if (type === 'object' && !isNode(node.properties)) {
    const values = isNode(node.patternProperties)
      ? Object.values(node.patternProperties)[0]
      : node.additionalProperties;
    if (isNode(values)) return { kind: 'map', element: typeOf(values, objectDefs, defs) };
  }
  return (typeof type === 'string' && SCALARS[type]) || { kind: 'json' };
}

function propertiesOf(
  node: SchemaNode,
  objectDefs: ReadonlySet<string>,
  defs: SchemaNode,
  createOnly: ReadonlySet<string>,
  skip: ReadonlySet<string>,
): PropertySpecs {
  const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
  const out: Record<string, PropertySpec> = {};
  for (const [name, child] of Object.entries(isNode(node.properties) ? node.properties : {})) {
    if (skip.has(name)) continue;
    const values = isNode(child) && Array.isArray(child.enum) ? (child.enum as (string | number)[]) : undefined;
    out[name] = {
      type: typeOf(child, objectDefs, defs),
      required: required.has(name),
      replacement: createOnly.has(name) ? 'Always' : 'Never',
      deprecated: false,
      ...(values ? { allowedValues: values } : {}),
    };
  }
  return out;
}

/** The ResourceSpec of a registered resource schema (a parsed JSON object). */
export function specOfSchema(typeName: string, schema: SchemaNode): ResourceSpec {
  const defs = isNode(schema.definitions) ? schema.definitions : {};
  const objectDefs = new Set(Object.keys(defs).filter((d) => isNode(defs[d]) && isNode(defs[d].properties)));
  const readOnly = pointers(schema, 'readOnlyProperties');
  const createOnly = new Set(pointers(schema, 'createOnlyProperties').filter((p) => !p.includes('.')));
  const topReadOnly = new Set(readOnly.filter((p) => !p.includes('.')));
  const properties = propertiesOf(schema, objectDefs, defs, createOnly, topReadOnly);
  const definitions = Object.fromEntries(
    [...objectDefs].map((d) => [d, propertiesOf(defs[d] as SchemaNode, objectDefs, defs, new Set(), new Set())]),
  );
  const schemaProperties = isNode(schema.properties) ? schema.properties : {};
  const attributes = Object.fromEntries(
    readOnly.map((p) => [
      p,
      p.includes('.') ? { kind: 'string' as const } : typeOf(schemaProperties[p], objectDefs, defs),
    ]),
  );
  const primaryIdentifier = pointers(schema, 'primaryIdentifier');
  const writableId =
    primaryIdentifier.length === 1 &&
    (properties[primaryIdentifier[0]] as PropertySpec | undefined)?.type.kind === 'string';
  const tagging = isNode(schema.tagging) ? schema.tagging : undefined;
  const tagProperty = typeof tagging?.tagProperty === 'string' ? pointerName(tagging.tagProperty) : 'Tags';
  return {
    type: typeName,
    properties,
    definitions,
    attributes,
    primaryIdentifier,
    refIdentifier: primaryIdentifier,
    nameProperty: writableId ? primaryIdentifier[0] : undefined,
    createOnlyProperties: [...createOnly].filter((p) => p in properties),
    conditionalReplacementProperties: [],
    additionalReplacementPaths: [],
    isStateful: false,
    tagging:
      tagging?.taggable !== false && tagProperty && tagProperty in properties
        ? { property: tagProperty, variant: 'standard' }
        : undefined,
    deprecated: false,
    defaults: {},
    attributeSamples: {},
  };
}
