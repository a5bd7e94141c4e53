// Which intrinsic functions exist and where each may appear: the tables the structure pass checks templates
// against, with AWS's error texts.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference.html
import { echo, validationError } from '../domain/errors.js';

/** The functions every template may use (AWS lists these in its "unsupported function" error). */
export const CORE_FUNCTIONS = [
  'Fn::Base64',
  'Fn::GetAtt',
  'Fn::GetAZs',
  'Fn::ImportValue',
  'Fn::Join',
  'Fn::Split',
  'Fn::FindInMap',
  'Fn::Select',
  'Ref',
  'Fn::Equals',
  'Fn::If',
  'Fn::Not',
  'Condition',
  'Fn::And',
  'Fn::Or',
  'Fn::Contains',
  'Fn::EachMemberEquals',
  'Fn::EachMemberIn',
  'Fn::ValueOf',
  'Fn::ValueOfAll',
  'Fn::RefAll',
  'Fn::Sub',
  'Fn::Cidr',
  'Fn::GetStackOutput',
] as const;

/** Functions that exist only when the template declares the AWS::LanguageExtensions transform. */
export const LANGUAGE_EXTENSION_FUNCTIONS = ['Fn::Length', 'Fn::ToJsonString'] as const;

/** Functions of the Rules section only. */
export const RULE_FUNCTIONS = new Set([
  'Fn::Contains',
  'Fn::EachMemberEquals',
  'Fn::EachMemberIn',
  'Fn::ValueOf',
  'Fn::ValueOfAll',
  'Fn::RefAll',
]);

export type Section = 'Resources' | 'Outputs' | 'Conditions' | 'Rules';

/** Per section, the functions it may not use (beyond unknown ones), with the reason AWS gives. */
export const FORBIDDEN_IN: Record<Section, ReadonlySet<string>> = {
  Resources: RULE_FUNCTIONS,
  Outputs: RULE_FUNCTIONS,
  // Conditions are evaluated before any resource exists: no import, no stack output (Fn::GetAtt and resource
  // Refs are refused by name in structure.ts).
  Conditions: new Set([...RULE_FUNCTIONS, 'Fn::ImportValue', 'Fn::GetStackOutput', 'Fn::If']),
  // Rules see parameter values only.
  Rules: new Set([
    'Fn::GetAtt',
    'Fn::ImportValue',
    'Fn::GetStackOutput',
    'Fn::If',
    'Fn::Sub',
    'Fn::Join',
    'Fn::Select',
    'Fn::Split',
    'Fn::FindInMap',
    'Fn::GetAZs',
    'Fn::Base64',
    'Fn::Cidr',
    'Fn::Length',
    'Fn::ToJsonString',
    'Condition',
  ]),
};

export function knownFunctions(languageExtensions: boolean): string[] {
  return languageExtensions ? [...CORE_FUNCTIONS, ...LANGUAGE_EXTENSION_FUNCTIONS] : [...CORE_FUNCTIONS];
}

/** AWS's refusal of a key that looks like a function but is not one (or needs a transform the template lacks). */
export function unsupportedFunction(name: string, languageExtensions: boolean): Error {
  return validationError(
    `Template format error: Encountered unsupported function: ${name} Supported functions are: [${knownFunctions(languageExtensions).join(', ')}]`,
  );
}

export function notAllowedIn(name: string, section: Section): Error {
  return validationError(
    `Template format error: ${echo(name)} is not supported in the ${section} block of the template`,
  );
}
