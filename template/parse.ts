// First pass of the template pipeline: the submitted text (JSON or YAML with short-form tags) → a plain object,
// with AWS's "Template format error" texts and bounds on size and alias expansion.
import { createRequire } from 'node:module';
import type { Document, Tags } from 'yaml';
import { validationError } from '../domain/errors.js';
import { duplicateKeyOffset } from './jsonKeys.js';

// The yaml package is loaded on the first YAML template, not at startup (it costs ~40 ms of CPU; see bench/README.md).
let yaml: typeof import('yaml') | undefined;
const loadYaml = () => (yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/** Short-form tag → the long form it stands for. `!GetAtt a.b` splits on the first dot. */
const SHORT_TAGS: Record<string, string> = {
  Ref: 'Ref',
  Condition: 'Condition',
  GetAtt: 'Fn::GetAtt',
  Sub: 'Fn::Sub',
  Join: 'Fn::Join',
  Select: 'Fn::Select',
  Split: 'Fn::Split',
  If: 'Fn::If',
  Equals: 'Fn::Equals',
  And: 'Fn::And',
  Or: 'Fn::Or',
  Not: 'Fn::Not',
  FindInMap: 'Fn::FindInMap',
  GetAZs: 'Fn::GetAZs',
  Base64: 'Fn::Base64',
  Cidr: 'Fn::Cidr',
  ImportValue: 'Fn::ImportValue',
  Transform: 'Fn::Transform',
  Length: 'Fn::Length',
  ToJsonString: 'Fn::ToJsonString',
  ForEach: 'Fn::ForEach',
  GetStackOutput: 'Fn::GetStackOutput',
  Contains: 'Fn::Contains',
  EachMemberEquals: 'Fn::EachMemberEquals',
  EachMemberIn: 'Fn::EachMemberIn',
  RefAll: 'Fn::RefAll',
  ValueOf: 'Fn::ValueOf',
  ValueOfAll: 'Fn::ValueOfAll',
};

/** Bound on nesting depth (every later pass recurses). Aliases, and so alias bombs, are refused outright. */
export const PARSE_LIMITS = { depth: 128 };

function shortScalar(short: string, full: string) {
  return (value: string) => {
    if (short === 'GetAtt') {
      const dot = value.indexOf('.');
      return { [full]: dot < 0 ? [value] : [value.slice(0, dot), value.slice(dot + 1)] };
    }
    return { [full]: value };
  };
}

const CFN_TAGS: Tags = Object.entries(SHORT_TAGS).flatMap(([short, full]) => [
  { tag: `!${short}`, resolve: shortScalar(short, full) },
  { tag: `!${short}`, collection: 'seq' as const, resolve: (seq: { toJSON(): unknown }) => ({ [full]: seq.toJSON() }) },
  { tag: `!${short}`, collection: 'map' as const, resolve: (map: { toJSON(): unknown }) => ({ [full]: map.toJSON() }) },
]);

/**
 * YAML 1.1 scalars as AWS reads them (the table in test/unit/template/yamlScalars.test.ts gives the evidence of each).
 * AWS's YAML reads dates as strings (`AWSTemplateFormatVersion: 2010-09-09` unquoted), so the timestamp tag goes.
 * Its booleans are PyYAML's and SnakeYAML's: yes/no/on/off/true/false in three casings, but not the one-letter
 * y/Y/n/N of the YAML 1.1 type page, so a parameter or key named `N` stays a string.
 */
// "CloudFormation doesn't support ... Hash merges" (User Guide, template anatomy), so `<<` is a plain key.
const DROPPED_TAGS = new Set(['tag:yaml.org,2002:timestamp', 'tag:yaml.org,2002:bool', 'tag:yaml.org,2002:merge']);
const AWS_BOOLEANS = [
  {
    tag: 'tag:yaml.org,2002:bool',
    default: true,
    identify: (v: unknown) => v === true,
    test: /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
    resolve: () => true,
  },
  {
    tag: 'tag:yaml.org,2002:bool',
    default: true,
    identify: (v: unknown) => v === false,
    test: /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
    resolve: () => false,
  },
];

export type TemplateFormat = 'JSON' | 'YAML';

export interface ParsedTemplate {
  body: string;
  format: TemplateFormat;
  doc: Record<string, unknown>;
}

function formatError(message: string): Error {
  return validationError(`Template format error: ${message}`);
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}

function parseJson(body: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const match = /position (\d+)/.exec((err as Error).message);
    const at = lineAndColumn(body, match ? Number(match[1]) : body.length);
    throw formatError(`JSON not well-formed. (line ${at.line}, column ${at.column})`);
  }
  // JSON.parse keeps the last of duplicate keys silently; AWS refuses the template.
  const dup = duplicateKeyOffset(body);
  if (dup !== undefined) {
    const at = lineAndColumn(body, dup);
    throw formatError(`JSON not well-formed. (line ${at.line}, column ${at.column})`);
  }
  return value;
}

function parseYaml(body: string): unknown {
  let doc: Document;
  try {
    doc = loadYaml().parseDocument(body, {
      version: '1.1',
      customTags: (tags) =>
        [
          ...tags.filter((t) => !(typeof t === 'object' && DROPPED_TAGS.has(t.tag))),
          ...AWS_BOOLEANS,
          ...(CFN_TAGS as unknown[]),
        ] as Tags,
      uniqueKeys: true,
      prettyErrors: false,
    });
  } catch {
    throw formatError('YAML not well-formed.');
  }
  const problem = doc.errors.at(0);
  if (problem) {
    const at = lineAndColumn(body, problem.pos[0]);
    throw formatError(`YAML not well-formed. (line ${at.line}, column ${at.column})`);
  }
  checkKeys(doc);
  return doc.toJS();
}

/**
 * A map key that is itself a map or a list (`? [a, b] : c`) has no JSON form: AWS refuses it. An alias is refused
 * with AWS's own text (the User Guide lists aliases as unsupported; the AWS CLI's `package` flattens them for that
 * reason: aws/aws-cli yamlhelper.py FlattenAliasDumper).
 */
function checkKeys(doc: Document): void {
  let bad = undefined as 'key' | 'alias' | undefined; // set inside the visitor
  const { visit, isPair, isCollection } = loadYaml();
  visit(doc, {
    Alias() {
      bad = 'alias';
      return visit.BREAK;
    },
    Pair(_, pair) {
      if (isPair(pair) && isCollection(pair.key)) {
        bad = 'key';
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (bad === 'alias')
    throw validationError('Template error: YAML aliases are not allowed in CloudFormation templates');
  if (bad) throw formatError('YAML not well-formed. (a map key must be a scalar)');
}

/** Iterative depth check so a deeply nested template is refused before any recursive pass runs. */
function checkDepth(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > PARSE_LIMITS.depth) {
      throw formatError(`Template is nested too deeply (more than ${PARSE_LIMITS.depth} levels).`);
    }
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
}

/** Parses a template body as AWS does: JSON when it is JSON, else YAML. */
export function parseTemplate(body: string): ParsedTemplate {
  // Editors on Windows save a byte-order mark; AWS reads past it.
  const text = body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  const trimmed = text.trimStart();
  const format: TemplateFormat = trimmed.startsWith('{') && looksLikeJson(trimmed) ? 'JSON' : 'YAML';
  const value = format === 'JSON' ? parseJson(text) : parseYaml(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw formatError('unsupported structure.');
  }
  checkDepth(value);
  return { body, format, doc: value as Record<string, unknown> };
}

/** A flow-style YAML map also starts with `{`; treat the body as JSON only if its first key is quoted. */
function looksLikeJson(trimmed: string): boolean {
  return /^\{\s*("|\})/.test(trimmed);
}
