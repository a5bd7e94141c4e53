// template/parse.ts: formats, short tags, and the bounds on bad input.
import { describe, it, expect } from 'vitest';
import { parseTemplate, PARSE_LIMITS } from '../../../template/parse.js';

describe('parseTemplate', () => {
  it('reads JSON as JSON and YAML with short tags as their long forms', () => {
    expect(parseTemplate('{"Resources": {}}').format).toBe('JSON');
    const { doc, format } = parseTemplate(
      'Resources:\n  A: !GetAtt B.C.D\n  B: !Sub [x, {a: !Ref c}]\n  V: 2010-09-09\n',
    );
    expect(format).toBe('YAML');
    expect(doc.Resources).toEqual({
      A: { 'Fn::GetAtt': ['B', 'C.D'] },
      B: { 'Fn::Sub': ['x', { a: { Ref: 'c' } }] },
      V: '2010-09-09',
    });
  });

  it('accepts the same key in different objects and keys that only look alike', () => {
    const body = '{"a": {"k": 1}, "b": {"k": [{"k": "\\"k\\""}]}, "c\\"": 1, "c": 2}';
    expect(parseTemplate(body).doc).toEqual(JSON.parse(body));
  });

  it('reads past a byte-order mark', () => {
    expect(parseTemplate('\uFEFF{"Resources": {}}').doc).toEqual({ Resources: {} });
    expect(parseTemplate('\uFEFFResources: {}\n').doc).toEqual({ Resources: {} });
  });

  it('treats a flow-style YAML map starting with { as YAML', () => {
    expect(parseTemplate('{Resources: {A: !Ref B}}').doc).toEqual({ Resources: { A: { Ref: 'B' } } });
  });

  it.each([
    ['JSON syntax', '{"a": }', /^Template format error: JSON not well-formed\. \(line 1, column \d+\)$/],
    ['JSON duplicate key', '{\n"a": 1,\n"a": 2}', 'Template format error: JSON not well-formed. (line 3, column 1)'],
    ['YAML duplicate key', 'a: 1\na: 2\n', 'Template format error: YAML not well-formed. (line 2, column 1)'],
    [
      'YAML collection key',
      '? [a]\n: 1\n',
      'Template format error: YAML not well-formed. (a map key must be a scalar)',
    ],
    ['a list body', '- a\n', 'Template format error: unsupported structure.'],
    [
      'nesting past the bound',
      JSON.stringify({ a: JSON.parse('['.repeat(PARSE_LIMITS.depth + 2) + ']'.repeat(PARSE_LIMITS.depth + 2)) }),
      /nested too deeply/,
    ],
  ])('refuses %s', (_, body, message) => {
    const run = () => parseTemplate(body);
    if (typeof message === 'string') expect(run).toThrow(message);
    else expect(run).toThrow(message);
  });

  it('refuses an alias bomb at the first alias, before any expansion', () => {
    let body = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 10; i++)
      body += `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]\n`;
    expect(() => parseTemplate(body)).toThrow(
      'Template error: YAML aliases are not allowed in CloudFormation templates',
    );
  });
});
