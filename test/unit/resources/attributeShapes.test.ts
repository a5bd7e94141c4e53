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

const ROWS = knownTypes().filter((t) => Object.keys(resourceSpec(t)!.attributes).length > 0);

describe('attribute values have the declared type and shape', () => {
  it('covers the whole specification', () => {
    expect(ROWS.length).toBeGreaterThan(1000);
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
      ([attr, t]) => shapeError(attr, t, values[attr]) ?? [],
    );
    expect(errors).toEqual([]);
  });
});
