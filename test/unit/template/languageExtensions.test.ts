// template/transforms: Fn::ForEach expansion, and the requests for the transforms that run outside the pipeline.
import { describe, it, expect } from 'vitest';
import { applyTransforms as apply, type TransformContext } from '../../../template/transforms/index.js';
import { PendingTransform } from '../../../template/transforms/pending.js';

const literal = (v: unknown) => v;
const nothingRun = () => undefined;
const applyTransforms = (doc: Record<string, unknown>, evaluate: TransformContext['evaluate'], account: string) =>
  apply(doc, { evaluate, account, region: 'us-east-1', parameterValues: () => ({}), expansions: nothingRun });

describe('applyTransforms', () => {
  it('expands nested loops, ${} and &{} in keys and Fn::Sub, and Ref of the identifier', () => {
    const doc = {
      Transform: 'AWS::LanguageExtensions',
      Resources: {
        'Fn::ForEach::A': [
          'X',
          ['a-1', 'b'],
          {
            'Fn::ForEach::B': [
              'Y',
              ['p', 'q'],
              {
                'R&{X}${Y}': {
                  Type: 'T',
                  Properties: { N: { 'Fn::Sub': '${X}/${Y}/${Other}' }, R: { Ref: 'Y' }, O: { Ref: 'Other' } },
                },
              },
            ],
          },
        ],
      },
    };
    const { doc: out } = applyTransforms(doc, literal, '000000000000');
    expect(Object.keys(out.Resources as object)).toEqual(['Ra1p', 'Ra1q', 'Rbp', 'Rbq']);
    expect((out.Resources as Record<string, { Properties: unknown }>).Ra1q.Properties).toEqual({
      N: { 'Fn::Sub': 'a-1/q/${Other}' },
      R: 'q',
      O: { Ref: 'Other' },
    });
  });

  it('leaves templates without the transform alone', () => {
    const doc = { Resources: { 'Fn::ForEach::A': ['X', ['a'], {}] } };
    expect(applyTransforms(doc, literal, '1').doc).toBe(doc);
  });

  it.each([
    [{ Transform: 'AWS::Serverless-2016-10-31', Resources: {} }, 'sam'],
    [{ Transform: ['AWS::LanguageExtensions', 'Mine'], Resources: {} }, 'macro'],
    [
      { Resources: { A: { 'Fn::Transform': { Name: 'AWS::Include', Parameters: { Location: 's3://b/k' } } } } },
      'include',
    ],
  ])('asks for the transform that runs outside the pipeline: %j', (doc, kind) => {
    let thrown: unknown;
    try {
      applyTransforms(doc as Record<string, unknown>, literal, '123456789012');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(PendingTransform);
    expect((thrown as PendingTransform).request.kind).toBe(kind);
  });

  it.each([
    [
      { Resources: { A: { 'Fn::Transform': { Name: { Ref: 'X' } } } } },
      'Key Name of transform definition must be a string.',
    ],
    [
      { Transform: 'AWS::LanguageExtensions', Resources: { 'Fn::ForEach::L': ['X', 'notalist', {}] } },
      'Transform AWS::LanguageExtensions failed with: Fn::ForEach::L: the collection must be a list of strings.',
    ],
  ])('refuses %j', (doc, message) => {
    expect(() => applyTransforms(doc as Record<string, unknown>, literal, '123456789012')).toThrow(message);
  });

  it('bounds what a loop may generate', () => {
    const many = Array.from({ length: 200 }, (_, i) => `v${i}`);
    const doc = {
      Transform: 'AWS::LanguageExtensions',
      Resources: { 'Fn::ForEach::A': ['X', many, { 'Fn::ForEach::B': ['Y', many, { 'R${X}${Y}': {} }] }] },
    };
    expect(() => applyTransforms(doc, literal, '1')).toThrow(/generates more than 10000 entries/);
  });
});
