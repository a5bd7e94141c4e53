// The transform pass between parsing and validation: AWS::LanguageExtensions runs here; transforms that need
// services cfn-local does not simulate (S3 for AWS::Include, Lambda for macros, the SAM translator) are refused
// with a clear error, and Fn::ForEach without the transform is refused as AWS refuses it.
import { validationError } from '../../domain/errors.js';
import { expandLanguageExtensions, LANGUAGE_EXTENSIONS, type CollectionEvaluator } from './languageExtensions.js';

export const SERVERLESS = 'AWS::Serverless-2016-10-31';
/** The quota on a template after transforms (1 MB). */
export const MAX_PROCESSED_BYTES = 1_000_000;

export interface TransformResult {
  doc: Record<string, unknown>;
  /** The names in the template's Transform section, in order (DeclaredTransforms). */
  declared: string[];
}

/** The Transform section: a name or a list of names (a macro with Parameters is an object with Name). */
export function declaredTransforms(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((t) => {
    if (typeof t === 'string') return t;
    if (t !== null && typeof t === 'object' && typeof (t as { Name?: unknown }).Name === 'string') return (t as { Name: string }).Name;
    throw validationError('Template format error: Every Transform member must be a string or an object with a Name.');
  });
}

/** What AWS answers for a transform that cfn-local cannot run; see docs/template-language.md. */
function unsupportedTransform(name: string, account: string): Error {
  if (name === SERVERLESS) {
    return validationError(`Transform ${SERVERLESS} failed with: cfn-local does not run the SAM translator; deploy the processed template (sam build && sam package output, or GetTemplate TemplateStage=Processed from AWS).`);
  }
  if (name === 'AWS::Include') return includeError();
  return validationError(`No transform named ${account}::${name} found.`);
}

function includeError(location?: unknown): Error {
  const where = typeof location === 'string' ? ` ${location}` : '';
  return validationError(`Transform AWS::Include failed with: cfn-local has no S3 data plane and cannot read the snippet${where}; inline it in the template.`);
}

/** Every Fn::Transform in the template: a Ref as Name is AWS's own error; any other is unsupported here. */
function checkFnTransforms(doc: unknown, account: string): void {
  const stack: unknown[] = [doc];
  while (stack.length) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const t = (v as Record<string, unknown>)['Fn::Transform'];
    if (t !== undefined && !Array.isArray(v)) {
      const name = t !== null && typeof t === 'object' ? (t as Record<string, unknown>).Name : undefined;
      if (typeof name !== 'string') throw validationError('Key Name of transform definition must be a string.');
      if (name === 'AWS::Include') throw includeError(((t as Record<string, unknown>).Parameters as Record<string, unknown> | undefined)?.Location);
      throw unsupportedTransform(name, account);
    }
    stack.push(...Object.values(v));
  }
}

export function applyTransforms(doc: Record<string, unknown>, evaluate: CollectionEvaluator, account: string): TransformResult {
  const declared = declaredTransforms(doc.Transform);
  for (const name of declared) if (name !== LANGUAGE_EXTENSIONS) throw unsupportedTransform(name, account);
  checkFnTransforms(doc, account);
  // Without the transform, `Fn::ForEach::Name` is an ordinary key and fails validation as one (a non-alphanumeric
  // resource name, an unknown property).
  if (!declared.includes(LANGUAGE_EXTENSIONS)) return { doc, declared };
  const expanded = expandLanguageExtensions(doc, evaluate);
  const size = Buffer.byteLength(JSON.stringify(expanded));
  if (size > MAX_PROCESSED_BYTES) {
    throw validationError(`Transform ${LANGUAGE_EXTENSIONS} failed with: the processed template is ${size} bytes; the limit is ${MAX_PROCESSED_BYTES}.`);
  }
  return { doc: expanded, declared };
}
