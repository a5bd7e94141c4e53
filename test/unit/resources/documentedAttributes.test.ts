// Every Fn::GetAtt attribute AWS's user guide documents for a type (resources/documentedAttributes.json, generated
// from the guide's source by scripts/gen-doc-attributes.mjs) can be read: it is accepted and it has a value.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { attributeValues, cryptoRandom, newIdentity, supportsAttribute } from '../../../resources/generic.js';
import { resourceSpec } from '../../../resources/spec.js';

const DOCUMENTED = JSON.parse(
  readFileSync(new URL('../../../resources/documentedAttributes.json', import.meta.url), 'utf8'),
) as {
  source: string;
  types: Record<string, { attributes: string[]; tags?: boolean }>;
};
const ctx = { account: '123456789012', region: 'us-east-1', partition: 'aws' };
// Types the guide still documents that the specification no longer has (retired by AWS) are not deployable at all.
const ROWS = Object.entries(DOCUMENTED.types).filter(([type, d]) => d.attributes.length && resourceSpec(type));

describe('documented attributes', () => {
  it('comes from a pinned commit of the user guide and covers over a thousand types', () => {
    expect(DOCUMENTED.source).toMatch(/^github\.com\/awsdocs\/aws-cloudformation-user-guide@[0-9a-f]{40}$/);
    expect(Object.keys(DOCUMENTED.types).length).toBeGreaterThan(1000);
  });

  it.each(ROWS)('%s', (type, { attributes }) => {
    const identity = newIdentity({
      type,
      logicalId: 'Res',
      stackName: 'docs',
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
    expect(attributes.filter((a) => !supportsAttribute(type, a))).toEqual([]);
    expect(attributes.filter((a) => values[a] === undefined)).toEqual([]);
  });

  it("DomainArn is the domain's ARN, as Arn is", () => {
    for (const type of ['AWS::OpenSearchService::Domain', 'AWS::Elasticsearch::Domain']) {
      const identity = newIdentity({
        type,
        logicalId: 'Search',
        stackName: 'docs',
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
      expect(values.DomainArn).toMatch(/^arn:aws:es:us-east-1:123456789012:domain\//);
      expect(values.DomainArn).toBe(values.Arn ?? values.DomainArn);
    }
  });

  it('every type the guide documents Tags for takes tags', () => {
    const untagged = Object.entries(DOCUMENTED.types)
      .filter(([type, d]) => d.tags && resourceSpec(type)?.properties.Tags && !resourceSpec(type)?.tagging)
      .map(([type]) => type);
    expect(untagged).toEqual([]);
  });
});
