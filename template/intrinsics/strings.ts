// Fn::Join, Fn::Split, Fn::Select, Fn::Base64, Fn::Length and Fn::ToJsonString.
import { NO_VALUE } from '../model.js';
import type { EvalContext } from './context.js';
import { UNKNOWN_VALUE, templateError } from './context.js';
import type { Evaluate } from './context.js';

const JOIN_ERROR =
  'every Fn::Join object requires two parameters, (1) a string delimiter and (2) a list of strings to be joined or a function that returns a list of strings (such as Fn::GetAZs) to be joined.';
const SPLIT_ERROR =
  'every Fn::Split object requires two parameters, (1) a string delimiter and (2) a string to be split or a function that returns a string to be split.';
const SELECT_ERROR = 'Fn::Select requires a list argument with two elements: an integer index and a list';

function join(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string {
  if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') throw templateError(JOIN_ERROR);
  const list = evaluate(arg[1], ctx);
  if (!Array.isArray(list)) throw templateError(JOIN_ERROR);
  return list
    .filter((item) => item !== NO_VALUE)
    .map((item) => {
      if (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') return String(item);
      throw templateError(JOIN_ERROR);
    })
    .join(arg[0]);
}

function split(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string[] {
  if (!Array.isArray(arg) || arg.length !== 2 || typeof arg[0] !== 'string') throw templateError(SPLIT_ERROR);
  const source = evaluate(arg[1], ctx);
  if (typeof source !== 'string') throw templateError(SPLIT_ERROR);
  return source.split(arg[0]);
}

const isGetAZs = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v) && 'Fn::GetAZs' in v;

function select(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  if (!Array.isArray(arg) || arg.length !== 2) throw templateError(SELECT_ERROR);
  const indexValue = evaluate(arg[0], ctx);
  const index = typeof indexValue === 'number' ? indexValue : Number(indexValue);
  let list = evaluate(arg[1], ctx);
  if (typeof list === 'string' && list.includes(',')) list = list.split(',');
  if (!Number.isInteger(index) || !Array.isArray(list)) throw templateError(SELECT_ERROR);
  if (index < 0 || index >= list.length) {
    // AWS's check at the call (recorded for CreateChangeSet) gives the shape text; at execution, over a resource's
    // value or Fn::GetAZs (the account's zones are read then), the resource fails with the index, as real events
    // of short zone lists show.
    if (ctx.preview && isGetAZs(arg[1])) return UNKNOWN_VALUE;
    throw templateError(ctx.preview ? SELECT_ERROR : `Fn::Select cannot select nonexistent value at index ${index}`);
  }
  return list[index];
}

function base64(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string {
  const value = evaluate(arg, ctx);
  if (typeof value !== 'string') throw templateError('Fn::Base64 requires a string.');
  return Buffer.from(value, 'utf8').toString('base64');
}

function length(arg: unknown, ctx: EvalContext, evaluate: Evaluate): number {
  const value = evaluate(arg, ctx);
  if (!Array.isArray(value)) throw templateError('Fn::Length requires a list.');
  return value.length;
}

function toJsonString(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string {
  const value = evaluate(arg, ctx);
  if (value === null || typeof value !== 'object') {
    throw templateError('Fn::ToJsonString requires an object or a list.');
  }
  return JSON.stringify(value);
}

export const STRING_FUNCTIONS = {
  'Fn::Join': join,
  'Fn::Split': split,
  'Fn::Select': select,
  'Fn::Base64': base64,
  'Fn::Length': length,
  'Fn::ToJsonString': toJsonString,
};
