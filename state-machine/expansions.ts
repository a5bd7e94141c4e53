// Runs the transforms the template pipeline cannot run itself (the SAM translator, macros, AWS::Include), in one
// asynchronous step before a call's synchronous start: expandTransforms. Each output is recorded by the hash of its
// input for later preparations of the same template (a change set's execution, a rollback, a restart).
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

/** A template whose transforms have run: its body, and the outputs its synchronous preparation reads. */
export interface ExpandedTemplate {
  body: string;
  expansions: ExpansionLookup;
}

/** A template accepted before (a change set's, being executed): its transforms' outputs as they were recorded. */
export const recordedTemplate = (store: Store, body: string): ExpandedTemplate => ({
  body,
  expansions: (key) => store.transformOutputs.get(key) as TransformOutcome | undefined,
});

/** A template whose text never says Transform has no Transform section and no Fn::Transform: it asks for none. */
export const mayAskForTransforms = (body: string) => body.includes('Transform');

/** A template that asks for more transforms than this (macros whose output asks for macros…) is refused. */
const MAX_ROUNDS = 100;

/**
 * The explicit transform step, run once wherever a template enters, before the synchronous start: `pass` (the
 * template pipeline up to its transforms) runs, and again after each transform it asks for (SAM, a macro,
 * AWS::Include), each run here, afresh, as AWS processes a call's template, and recorded by the hash of its input
 * for later preparations of the same template. What the pass cannot get past (a failed transform, a template
 * error) is left for the start to meet where it checks it, in AWS's order: so is a transform that could not run
 * (no such macro), whose error the start's lookup throws.
 */
export async function expandTransforms(
  store: Store,
  services: TransformServices | undefined,
  body: string,
  pass: (expansions: ExpansionLookup) => void,
): Promise<ExpandedTemplate> {
  const outputs = new Map<string, TransformOutcome | Error>();
  const expansions: ExpansionLookup = (key) => {
    const output = outputs.get(key);
    if (output instanceof Error) throw output;
    return output;
  };
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const request = pendingOf(() => pass(expansions));
    if (!request) break;
    try {
      const outcome = await runTransform(store, services, request);
      outputs.set(request.key, outcome);
      store.transformOutputs.put(request.key, outcome, new Date().toISOString());
    } catch (err) {
      outputs.set(request.key, err instanceof Error ? err : new Error(String(err)));
      break;
    }
  }
  return { body, expansions };
}

/** The transform the pass is missing, if that is what stops it. */
function pendingOf(pass: () => void): TransformRequest | undefined {
  try {
    pass();
    return undefined;
  } catch (err) {
    return err instanceof PendingTransform ? err.request : undefined;
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
