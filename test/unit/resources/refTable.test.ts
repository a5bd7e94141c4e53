// What Ref returns, for every type of the specification, and why: the rule that gives it is stated per type and
// checked against the value the generic provider produces. The schema's cfnRefIdentifier (else its
// primaryIdentifier) decides where AWS's Return values pages are silent or contradict the schema.
import { describe, expect, it } from 'vitest';
import {
  ID_FORMATS,
  REF_EXCEPTIONS,
  attributeValues,
  cryptoRandom,
  isArnName,
  newIdentity,
  refValue,
} from '../../../resources/generic.js';
import { REF_FROM_PROPERTY } from '../../../resources/quirks.js';
import { knownTypes, resourceSpec } from '../../../resources/spec.js';

const ctx = { account: '123456789012', region: 'us-east-1', partition: 'aws' };

type Why =
  | 'a property AWS documents as the Ref (REF_FROM_PROPERTY)'
  | 'an attribute AWS documents as the Ref (REF_EXCEPTIONS)'
  | 'the ARN: the identifier is an ARN'
  | 'the name: the identifier is the name property'
  | "a service-generated id in the service's format (ID_FORMATS)"
  | 'the identifier properties joined with | (compound identifier)'
  | 'a generated identifier';

/** Why a type's Ref is what it is: the first rule that applies, in the order the provider applies them. */
function whyOf(type: string): Why {
  const spec = resourceSpec(type)!;
  const ref = spec.refIdentifier;
  if (REF_FROM_PROPERTY[type]) return 'a property AWS documents as the Ref (REF_FROM_PROPERTY)';
  if (REF_EXCEPTIONS[type]) return 'an attribute AWS documents as the Ref (REF_EXCEPTIONS)';
  if (ref.length === 1 && isArnName(ref[0])) return 'the ARN: the identifier is an ARN';
  if (ref.length === 1 && ref[0] === spec.nameProperty) return 'the name: the identifier is the name property';
  if (ID_FORMATS[type]) return "a service-generated id in the service's format (ID_FORMATS)";
  if (ref.length > 1) return 'the identifier properties joined with | (compound identifier)';
  return 'a generated identifier';
}

/** The shape each reason promises, for a resource created from empty properties (a compound id needs its parts). */
const CHECKS: Record<Why, (ref: string, name: string | undefined, type: string) => boolean> = {
  'a property AWS documents as the Ref (REF_FROM_PROPERTY)': () => true,
  'an attribute AWS documents as the Ref (REF_EXCEPTIONS)': (ref) => ref.length > 0,
  'the ARN: the identifier is an ARN': (ref) => /^arn:aws:[a-z0-9-]+:/.test(ref),
  'the name: the identifier is the name property': (ref, name, type) =>
    ref === name || (type === 'AWS::SNS::Topic' && ref.endsWith(`:${name}`)),
  "a service-generated id in the service's format (ID_FORMATS)": (ref) => ref.length > 0 && !ref.includes('|'),
  'the identifier properties joined with | (compound identifier)': (ref) => ref.length > 0,
  'a generated identifier': (ref) => ref.length > 0,
};

const ROWS = knownTypes().map((type) => [type, whyOf(type)] as const);

describe('Ref of every type', () => {
  it('covers the whole specification', () => {
    expect(ROWS.length).toBeGreaterThan(1500);
  });

  it('the S3 Tables table bucket and table are referred to by ARN, as their schemas identify them', () => {
    expect(whyOf('AWS::S3Tables::TableBucket')).toBe('the ARN: the identifier is an ARN');
    expect(whyOf('AWS::S3Tables::Table')).toBe('the ARN: the identifier is an ARN');
    expect(whyOf('AWS::ApiGateway::Stage')).toBe('a property AWS documents as the Ref (REF_FROM_PROPERTY)');
  });

  it.each(ROWS)('%s: Ref returns %s', (type, why) => {
    const identity = newIdentity({
      type,
      logicalId: 'Res',
      stackName: 'refs',
      properties: {},
      ctx,
      random: cryptoRandom,
    });
    const attributes = attributeValues({
      type,
      physicalId: identity.physicalId,
      name: identity.name,
      properties: {},
      ctx,
      random: cryptoRandom,
    });
    const ref = refValue({ type, physicalId: identity.physicalId, attributes });
    expect(CHECKS[why](ref, identity.name, type), `${type} Ref ${ref}`).toBe(true);
  });
});
