// How template/parse.ts reads YAML 1.1 plain scalars, row by row, each with the evidence of what AWS does.
import { describe, it, expect } from 'vitest';
import { parseTemplate } from '../../../template/parse.js';

// AWS's YAML is YAML 1.1 "with a few exceptions": no binary, omap, pairs, set or timestamp tags, no aliases, no hash
// merges (CloudFormation User Guide, template anatomy, "Specifications").
const GUIDE = 'User Guide: YAML 1.1 without timestamp, aliases, hash merges';
// The AWS CLI reads and writes templates with PyYAML's YAML 1.1 SafeLoader/SafeDumper
// (aws/aws-cli awscli/customizations/cloudformation/yamlhelper.py), as SnakeYAML does on the JVM: their bool rule is
// yes/no/true/false/on/off in three casings, without the one-letter y/n of https://yaml.org/type/bool.html.
const CLI = 'aws-cli yamlhelper.py (PyYAML SafeLoader resolvers)';
// The CLI's own test lists the words it must quote to keep them strings: yes/Yes/YES … off/Off/OFF, not y/n
// (aws/aws-cli tests/unit/customizations/cloudformation/test_yamlhelper.py::test_yaml_dump_quotes_boolean_strings).
const CLI_TEST = 'aws-cli test_yaml_dump_quotes_boolean_strings';
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/format-version-structure.html writes the version
// unquoted: `AWSTemplateFormatVersion: 2010-09-09` is the string "2010-09-09".
const VERSION = 'format-version-structure.html (unquoted date is a string)';

const ROWS: [scalar: string, value: unknown, evidence: string][] = [
  ['y', 'y', CLI_TEST],
  ['Y', 'Y', CLI_TEST],
  ['n', 'n', CLI_TEST],
  ['N', 'N', CLI_TEST],
  ['yes', true, CLI_TEST],
  ['Yes', true, CLI_TEST],
  ['YES', true, CLI_TEST],
  ['no', false, CLI_TEST],
  ['No', false, CLI_TEST],
  ['NO', false, CLI_TEST],
  ['on', true, CLI_TEST],
  ['On', true, CLI_TEST],
  ['ON', true, CLI_TEST],
  ['off', false, CLI_TEST],
  ['Off', false, CLI_TEST],
  ['OFF', false, CLI_TEST],
  ['true', true, CLI_TEST],
  ['False', false, CLI_TEST],
  ['yEs', 'yEs', CLI],
  ['0755', 493, `${CLI}: 1.1 octal`],
  ['0o17', '0o17', `${CLI}: 0o is YAML 1.2 only`],
  ['0x1F', 31, CLI],
  ['0b101', 5, CLI],
  ['1_000', 1000, CLI],
  ['190:20:30', 685230, `${CLI}: sexagesimal int`],
  ['1:20.5', 80.5, `${CLI}: sexagesimal float`],
  ['1.5', 1.5, CLI],
  ['.inf', Infinity, CLI],
  ['-.Inf', -Infinity, CLI],
  ['~', null, CLI],
  ['null', null, CLI],
  ['Null', null, CLI],
  ['', null, CLI],
  ['2010-09-09', '2010-09-09', VERSION],
  ['2001-12-14t21:59:43.10-05:00', '2001-12-14t21:59:43.10-05:00', GUIDE],
];

describe('YAML 1.1 plain scalars as AWS reads them', () => {
  it.each(ROWS)('%j reads as %j (%s)', (scalar, value) => {
    expect(parseTemplate(`V: ${scalar}\n`).doc.V).toEqual(value);
  });

  it('keys that are not strings become the string of their value; y/n keys stay as written (%s)', () => {
    expect(Object.keys(parseTemplate('N: 1\nY: 2\n1: 3\nyes: 4\n0x10: 5\n').doc)).toEqual([
      '1',
      '16',
      'N',
      'Y',
      'true',
    ]);
  });

  it(`a hash merge key is a plain key (${GUIDE})`, () => {
    expect(parseTemplate('M:\n  <<: {a: 1}\n').doc.M).toEqual({ '<<': { a: 1 } });
  });

  // Public AWS output: "Template error: YAML aliases are not allowed in CloudFormation templates".
  it(`an alias is refused with AWS's text (${GUIDE})`, () => {
    expect(() => parseTemplate('A: &a x\nB: *a\n')).toThrow(
      'Template error: YAML aliases are not allowed in CloudFormation templates',
    );
  });
});
