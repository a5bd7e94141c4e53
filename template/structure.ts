// Static checks of intrinsic-function shapes that AWS refuses at the call, before any value is known.
import { templateError } from './intrinsics/context.js';
import type { TemplateModel } from './model.js';

type Check = (arg: unknown, model: TemplateModel) => void;

const getAttMessage = 'every Fn::GetAtt object requires two non-empty parameters, the resource name and the resource attribute';

const CHECKS: Record<string, Check> = {
  'Fn::GetAtt': (arg) => {
    const parts = typeof arg === 'string' ? (arg.includes('.') ? [arg.slice(0, arg.indexOf('.')), arg.slice(arg.indexOf('.') + 1)] : [arg]) : arg;
    if (!Array.isArray(parts) || parts.length !== 2 || typeof parts[0] !== 'string' || !parts[0]) throw templateError(getAttMessage);
    if (typeof parts[1] === 'string' && !parts[1]) throw templateError(getAttMessage);
  },
  'Fn::Select': (arg) => {
    if (!Array.isArray(arg) || arg.length !== 2) {
      throw templateError('Fn::Select requires a list argument with two elements: an integer index and a list');
    }
  },
  'Fn::Split': (arg) => {
    if (!Array.isArray(arg) || arg.length !== 2) {
      throw templateError('every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.');
    }
  },
  'Fn::Join': (arg) => {
    if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') {
      throw templateError('every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.');
    }
  },
  'Fn::Equals': (arg) => {
    if (!Array.isArray(arg) || arg.length !== 2) throw templateError('every Fn::Equals object requires a list of 2 string parameters.');
  },
  'Fn::If': (arg, model) => {
    if (!Array.isArray(arg) || arg.length !== 3) {
      throw templateError('every Fn::If object requires three parameters, (1) a condition name, (2) a value to return when the condition is true, and (3) a value to return when the condition is false.');
    }
    if (typeof arg[0] !== 'string' || !(arg[0] in model.conditions)) {
      throw templateError(`unresolved condition dependency ${String(arg[0])} in Fn::If`);
    }
  },
};

function walk(value: unknown, model: TemplateModel, depth: number): void {
  if (depth > 200) throw templateError('the template is nested too deeply.');
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const v of value) walk(v, model, depth + 1);
    return;
  }
  const entries = Object.entries(value);
  if (entries.length === 1 && CHECKS[entries[0][0]]) CHECKS[entries[0][0]](entries[0][1], model);
  for (const [, v] of entries) walk(v, model, depth + 1);
}

export function checkFunctionStructure(model: TemplateModel): void {
  for (const r of model.resources.values()) walk(r.properties, model, 0);
  for (const o of model.outputs) walk(o.value, model, 0);
  walk(model.conditions, model, 0);
}
