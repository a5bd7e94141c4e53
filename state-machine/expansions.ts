// Runs the transforms the template pipeline cannot run itself (the SAM translator, macros, AWS::Include): a call
// that creates or updates a stack or a change set is retried after each transform its template asks for, and
// each output is recorded by the hash of its input for later preparations of the same template.
import { AsyncLocalStorage } from 'node:async_hooks';
import { validationError } from '../domain/errors.js';
import type { Store } from '../storage/index.js';
import {
  PendingTransform,
  SERVERLESS,
  type ExpansionLookup,
  type TransformOutcome,
  type TransformRequest,
} from '../template/transforms/pending.js';
import { invokeMacro } from '../template/transforms/macros.js';
import { parseTemplate } from '../template/parse.js';
import { parseS3Url } from '../resources/s3Urls.js';
import type { SamTranslator } from '../template/transforms/sam.js';
import type { LambdaInvoker } from '../resources/provider.js';

/** What the transforms reach outside the pipeline. */
export interface TransformServices {
  sam: SamTranslator;
  lambdaEndpoint?: string;
  /** The runtime that runs macros' functions (undefined with --no-lambda). */
  lambda?: LambdaInvoker;
  /** Reads an S3 URL of the simulated account (AWS::Include's Location); absent: AWS::Include is refused. */
  readS3?: (scope: { account: string; region: string }, url: string) => Promise<string>;
}

/** The outputs this call has produced: its own template is always processed afresh, as AWS processes it. */
const CALL = new AsyncLocalStorage<Map<string, TransformOutcome>>();
/** A template that asks for more transforms than this (macros whose output asks for macros…) is refused. */
const MAX_ROUNDS = 100;

/** The lookup a preparation uses: this call's outputs, else (for a template prepared before) the recorded ones. */
export function expansionLookup(store: Store, stored: boolean): ExpansionLookup {
  return (key) => {
    const fresh = CALL.getStore()?.get(key);
    if (fresh || (CALL.getStore() && !stored)) return fresh;
    return store.transformOutputs.get(key) as TransformOutcome | undefined;
  };
}

/** Runs fn, and again after running each transform it asks for, until it asks for none. */
export async function withTransforms<T>(
  store: Store,
  services: TransformServices | undefined,
  fn: () => T,
): Promise<T> {
  const outputs = new Map<string, TransformOutcome>();
  for (let round = 0; ; round++) {
    try {
      return CALL.run(outputs, fn);
    } catch (err) {
      if (!(err instanceof PendingTransform) || round >= MAX_ROUNDS) throw err;
      const outcome = await runTransform(store, services, err.request);
      outputs.set(err.request.key, outcome);
      store.transformOutputs.put(err.request.key, outcome, new Date().toISOString());
    }
  }
}

async function runTransform(
  store: Store,
  services: TransformServices | undefined,
  req: TransformRequest,
): Promise<TransformOutcome> {
  if (!services) throw validationError(`cfn-local cannot run the transform of this template here.`);
  if (req.kind === 'sam') {
    const answer = await services.sam.translate(req.template, req.parameters, req.region);
    return 'error' in answer
      ? { failure: `Transform ${SERVERLESS} failed with: ${answer.error}` }
      : { fragment: answer.template };
  }
  if (req.kind === 'macro') {
    const macro = store.world.byName(req.account, req.region, 'AWS::CloudFormation::Macro', req.name);
    if (!macro) throw validationError(`No transform named ${req.transformId} found.`);
    return invokeMacro(req, String(macro.properties.FunctionName ?? ''), services.lambdaEndpoint, services.lambda);
  }
  return include(services, req);
}

/** AWS::Include: the snippet at Location (an s3:// URI or an S3 URL), YAML or JSON, or AWS's text for one that cannot be read. */
async function include(
  services: TransformServices,
  req: Extract<TransformRequest, { kind: 'include' }>,
): Promise<TransformOutcome> {
  const failed = (why: string): TransformOutcome => ({ failure: `Transform AWS::Include failed with: ${why}` });
  const uri = /^s3:\/\/([^/]+)\/(.+)$/.exec(req.location);
  const location = uri ? { bucket: uri[1], key: uri[2] } : parseS3Url(req.location);
  if (!location) return failed('The location parameter is not a valid S3 uri.');
  if (!services.readS3)
    return failed(
      `cfn-local has no S3 data plane and cannot read the snippet ${req.location}; inline it in the template.`,
    );
  let text: string;
  try {
    // readS3Url takes the URL forms of TemplateURL; an s3:// URI is the same object at its path-style address.
    const url = uri
      ? `https://s3.amazonaws.com/${location.bucket}/${location.key.split('/').map(encodeURIComponent).join('/')}`
      : req.location;
    text = await services.readS3({ account: req.account, region: req.region }, url);
  } catch (err) {
    const message = (err as Error).message;
    if (/specified bucket does not exist/.test(message))
      return failed(`S3 bucket [${location.bucket}] does not exist.`);
    if (/specified key does not exist/.test(message))
      return failed(`S3 object [${location.key}] does not exist in bucket [${location.bucket}].`);
    return failed(message);
  }
  try {
    return { fragment: parseTemplate(text).doc };
  } catch {
    return failed("The specified S3 object's content should be valid Yaml/JSON.");
  }
}
