// The console's JSON/YAML tokenizer (console/src/highlight.ts): every character kept, each token's kind.
import { describe, expect, it } from 'vitest';
import { tokens } from '../../../console/src/highlight.js';

const kinds = (text: string) =>
  tokens(text)
    .filter(([k]) => k)
    .map(([k, t]) => `${k}:${t}`);

describe('tokens', () => {
  it('marks YAML keys, tags, strings, numbers, literals and comments, and keeps every character', () => {
    const yaml =
      "Resources: # the stack\n  Q:\n    Type: 'AWS::SQS::Queue'\n    Properties: { DelaySeconds: 5, Fifo: true, Name: !Ref N }\n";
    expect(kinds(yaml)).toEqual([
      'key:Resources',
      'comment:# the stack',
      'key:Q',
      'key:Type',
      "string:'AWS::SQS::Queue'",
      'key:Properties',
      'key:DelaySeconds',
      'number:5',
      'key:Fifo',
      'literal:true',
      'key:Name',
      'tag:!Ref',
    ]);
    expect(
      tokens(yaml)
        .map(([, t]) => t)
        .join(''),
    ).toBe(yaml);
  });

  it('keeps a key with double colons whole, and a value with them plain', () => {
    expect(kinds('Fn::ForEach::Topics:\n  - Type: AWS::SNS::Topic\n')).toEqual(['key:Fn::ForEach::Topics', 'key:Type']);
  });

  it('tells a JSON key from a JSON string value', () => {
    expect(kinds('{"Ref": "Bucket", "n": -1.5}')).toEqual(['key:"Ref"', 'string:"Bucket"', 'key:"n"', 'number:-1.5']);
  });
});
