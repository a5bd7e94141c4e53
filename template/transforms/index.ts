// The transform pass between parsing and validation, in AWS's order: every Fn::Transform from the most deeply nested
// outward, then the Transform section's entries in the order listed. AWS::LanguageExtensions runs here; the SAM
// translator, macros and AWS::Include run outside the pipeline (see pending.ts) and are looked up by their input.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/template-macros.html
import { validationError } from '../../domain/errors.js';
import { expandLanguageExtensions, LANGUAGE_EXTENSIONS, type CollectionEvaluator } from './languageExtensions.js';
import {
  INCLUDE,
  SERVERLESS,
  outcomeOf,
  transformKey,
  type ExpansionLookup,
  type TransformRequest,
} from './pending.js';
import { isObject } from '../../domain/values.js';

export { SERVERLESS } from './pending.js';
/** The quota on a template after transforms (1 MB). */
export const MAX_PROCESSED_BYTES = 1_000_000;

export interface TransformResult {
  doc: Record<string, unknown>;
  /** The names in the template's Transform section, in order (DeclaredTransforms). */
  declared: string[];
}

/** What the transform pass reads besides the template. */
export interface TransformContext {
  evaluate: CollectionEvaluator;
  /** The template's parameter values (templateParameterValues, the translator's parameter_values). */
  parameterValues: () => Record<string, unknown>;
  account: string;
  region: string;
  /**
   * The outputs of the transforms that run outside the pipeline. Absent for ValidateTemplate and GetTemplateSummary,
   * which describe the template as written: those transforms are left unprocessed.
   */
  expansions?: ExpansionLookup;
}

interface Entry {
  name: string;
  params: Record<string, unknown>;
}

/** The Transform section: a name or a list of names (a macro with Parameters is an object with Name). */
export function declaredTransforms(value: unknown): string[] {
  return transformEntries(value).map((e) => e.name);
}

function transformEntries(value: unknown): Entry[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) => {
    if (typeof t === 'string') return { name: t, params: {} };
    if (t !== null && typeof t === 'object' && typeof (t as { Name?: unknown }).Name === 'string') {
      const { Name, Parameters } = t as { Name: string; Parameters?: unknown };
      return { name: Name, params: isObject(Parameters) ? Parameters : {} };
    }
    throw validationError('Template format error: Every Transform member must be a string or an object with a Name.');
  });
}

/** A macro's transformId and the name AWS reports it under: `<account>::<name>`. */
export const transformIdOf = (account: string, name: string) => `${account}::${name}`;

function request(entry: Entry, fragment: unknown, ctx: TransformContext): TransformRequest {
  const { account, region } = ctx;
  if (entry.name === INCLUDE) {
    const location = entry.params.Location;
    if (typeof location !== 'string')
      throw validationError(`Transform ${INCLUDE} failed with: The Location parameter of ${INCLUDE} must be a string.`);
    return { kind: 'include', key: transformKey('include', location, account, region), location, account, region };
  }
  const parameters = ctx.parameterValues();
  if (entry.name === SERVERLESS) {
    const template = { ...(fragment as Record<string, unknown>), Transform: SERVERLESS };
    return { kind: 'sam', key: transformKey('sam', template, parameters, region), template, parameters, region };
  }
  const transformId = transformIdOf(account, entry.name);
  return {
    kind: 'macro',
    key: transformKey('macro', transformId, fragment, entry.params, parameters, region),
    name: entry.name,
    transformId,
    fragment,
    params: entry.params,
    parameters,
    account,
    region,
  };
}

/** Every Fn::Transform, deepest first; each object holding one is replaced by the transform's output. */
function snippets(value: unknown, ctx: TransformContext): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => snippets(v, ctx));
    return items.some((v, i) => v !== value[i]) ? items : value;
  }
  if (!isObject(value)) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === 'Fn::Transform' ? v : snippets(v, ctx);
    changed ||= out[k] !== v;
  }
  if (!Object.hasOwn(out, 'Fn::Transform')) return changed ? out : value;
  const { 'Fn::Transform': spec, ...siblings } = out;
  const name = isObject(spec) ? spec.Name : undefined;
  if (typeof name !== 'string') throw validationError('Key Name of transform definition must be a string.');
  const entry = { name, params: isObject(spec) && isObject(spec.Parameters) ? spec.Parameters : {} };
  if (name === SERVERLESS || name === LANGUAGE_EXTENSIONS)
    throw validationError(`Transform ${name} is only supported in the Transform section of a template.`);
  if (!ctx.expansions) return changed ? out : value;
  const result = outcomeOf(ctx.expansions, request(entry, siblings, ctx));
  // An included snippet takes the place of the Fn::Transform; what stood beside it stays.
  return entry.name === INCLUDE && isObject(result) ? { ...siblings, ...result } : result;
}

/** A Transform-section entry's output is the whole template (AWS::Include's snippet adds to the template's sections). */
function templateLevel(doc: Record<string, unknown>, entry: Entry, ctx: TransformContext): Record<string, unknown> {
  const { Transform: declared, ...rest } = doc;
  const result = outcomeOf(ctx.expansions, request(entry, rest, ctx));
  if (!isObject(result))
    throw validationError(
      `Template format error: the ${entry.name} transform returned a template that is not a JSON object.`,
    );
  if (entry.name !== INCLUDE) return { ...result, Transform: declared };
  const merged: Record<string, unknown> = { ...doc };
  for (const [section, body] of Object.entries(result)) {
    merged[section] = isObject(merged[section]) && isObject(body) ? { ...merged[section], ...body } : body;
  }
  return merged;
}

export function applyTransforms(input: Record<string, unknown>, ctx: TransformContext): TransformResult {
  const entries = transformEntries(input.Transform);
  const declared = entries.map((e) => e.name);
  let doc = snippets(input, ctx) as Record<string, unknown>;
  for (const entry of entries) {
    // Without the transform, `Fn::ForEach::Name` is an ordinary key and fails validation as one.
    if (entry.name === LANGUAGE_EXTENSIONS) doc = expandLanguageExtensions(doc, ctx.evaluate);
    else if (ctx.expansions) doc = templateLevel(doc, entry, ctx);
  }
  if (doc === input) return { doc, declared };
  const size = Buffer.byteLength(JSON.stringify(doc));
  if (size > MAX_PROCESSED_BYTES) {
    const name = declared.at(-1) ?? 'Fn::Transform';
    throw validationError(
      `Transform ${name} failed with: the processed template is ${size} bytes; the limit is ${MAX_PROCESSED_BYTES}.`,
    );
  }
  return { doc, declared };
}
