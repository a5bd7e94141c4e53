// Static checks of intrinsic functions that AWS refuses at the call, before any value is known: unknown functions,
// functions used where AWS does not allow them, references to undefined names, and argument shapes.
import { validationError } from '../domain/errors.js';
import { templateError } from './intrinsics/context.js';
import { PSEUDO_PARAMETERS } from './intrinsics/references.js';
import { FORBIDDEN_IN, knownFunctions, notAllowedIn, unsupportedFunction, type Section } from './functions.js';
import type { TemplateModel } from './model.js';
import { isList, entriesOf } from '../domain/values.js';

type Check = (arg: unknown, model: TemplateModel) => void;

const getAttMessage =
  'every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute';

function dotted(arg: string): string[] {
  const dot = arg.indexOf('.');
  return dot < 0 ? [arg] : [arg.slice(0, dot), arg.slice(dot + 1)];
}

const CHECKS: Partial<Record<string, Check>> = {
  'Fn::GetAtt': (arg) => {
    const parts = typeof arg === 'string' ? dotted(arg) : arg;
    if (!isList(parts) || parts.length !== 2 || typeof parts[0] !== 'string' || !parts[0])
      throw templateError(getAttMessage);
    if (typeof parts[1] === 'string' ? !parts[1] : parts[1] === null || typeof parts[1] !== 'object')
      throw templateError(getAttMessage);
  },
  'Fn::Select': (arg) => {
    if (!isList(arg) || arg.length !== 2) {
      throw templateError('Fn::Select requires a list argument with two elements: an integer index and a list');
    }
  },
  'Fn::Split': (arg) => {
    if (!isList(arg) || arg.length !== 2) {
      throw templateError(
        'every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.',
      );
    }
  },
  'Fn::Join': (arg) => {
    if (!isList(arg) || arg.length !== 2 || typeof arg[0] !== 'string') {
      throw templateError(
        'every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.',
      );
    }
  },
  'Fn::Equals': (arg) => {
    if (!isList(arg) || arg.length !== 2)
      throw templateError('every Fn::Equals object requires a list of 2 string parameters.');
  },
  'Fn::FindInMap': (arg, model) => {
    // The fourth, {DefaultValue: …} argument exists only under AWS::LanguageExtensions.
    const le = model.transforms.includes('AWS::LanguageExtensions');
    const withDefault =
      le &&
      isList(arg) &&
      arg.length === 4 &&
      arg[3] !== null &&
      typeof arg[3] === 'object' &&
      'DefaultValue' in arg[3];
    if (!isList(arg) || (arg.length !== 3 && !withDefault)) {
      throw templateError(
        'every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value',
      );
    }
  },
  'Fn::If': (arg, model) => {
    if (!isList(arg) || arg.length !== 3) {
      throw templateError(
        'every Fn::If object requires three parameters, (1) a condition name, (2) a value to return when the condition is true, and (3) a value to return when the condition is false.',
      );
    }
    if (typeof arg[0] !== 'string' || !Object.hasOwn(model.conditions, arg[0])) {
      throw templateError(`unresolved condition dependency ${String(arg[0])} in Fn::If`);
    }
  },
};

interface Walk {
  model: TemplateModel;
  section: Section;
  known: Set<string>;
}

const isFunctionKey = (key: string, section: Section) =>
  key === 'Ref' || key.startsWith('Fn::') || (key === 'Condition' && (section === 'Conditions' || section === 'Rules'));

const cannotReference = (name: string, section: Section) =>
  validationError(
    `Template format error: Unresolved dependencies [${name}]. Cannot reference resources in the ${section} block of the template`,
  );

function checkReferences(name: string, arg: unknown, w: Walk): void {
  const { model, section } = w;
  if (name === 'Ref') {
    if (typeof arg !== 'string')
      throw validationError('Template format error: Every Ref object must have a single String value.');
    if ((section === 'Conditions' || section === 'Rules') && model.resources.has(arg))
      throw cannotReference(arg, section);
    const known = PSEUDO_PARAMETERS.has(arg) || Object.hasOwn(model.parameters, arg) || model.resources.has(arg);
    if (!known && section === 'Outputs') {
      throw validationError(
        `Template format error: Unresolved resource dependencies [${arg}] in the Outputs block of the template`,
      );
    }
    if (!known && section !== 'Resources') throw cannotReference(arg, section);
  } else if (name === 'Fn::GetAtt') {
    const target = typeof arg === 'string' ? dotted(arg)[0] : isList(arg) ? arg[0] : undefined;
    if (typeof target !== 'string') return;
    if (section === 'Conditions') throw cannotReference(target, section);
    if (!model.resources.has(target))
      throw templateError(`instance of Fn::GetAtt references undefined resource ${target}`);
  }
}

function walk(value: unknown, w: Walk, depth: number): void {
  if (depth > 200) throw templateError('the template is nested too deeply.');
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, w, depth + 1);
    return;
  }
  const entries = entriesOf(value);
  if (entries.length === 1 && isFunctionKey(entries[0][0], w.section)) {
    const [name, arg] = entries[0];
    if (!w.known.has(name)) throw unsupportedFunction(name, w.known.has('Fn::Length'));
    if (FORBIDDEN_IN[w.section].has(name)) throw notAllowedIn(name, w.section);
    checkReferences(name, arg, w);
    CHECKS[name]?.(arg, w.model);
  }
  for (const [, v] of entries) walk(v, w, depth + 1);
}

/** Values a section evaluates: resource properties and attributes, output fields, conditions, rule assertions. */
export function checkFunctionStructure(model: TemplateModel): void {
  const known = new Set(knownFunctions(model.transforms.includes('AWS::LanguageExtensions')));
  const at = (section: Section): Walk => ({ model, section, known });
  for (const r of model.resources.values()) {
    for (const v of [r.properties, r.metadata, r.updatePolicy, r.creationPolicy]) walk(v, at('Resources'), 0);
  }
  for (const o of model.outputs) for (const v of [o.value, o.description, o.exportName]) walk(v, at('Outputs'), 0);
  walk(model.conditions, at('Conditions'), 0);
  walk(model.rules, at('Rules'), 0);
}
