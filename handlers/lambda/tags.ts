// Lambda's TagResource, UntagResource and ListTags over a function's world row: the tags are its Tags property, so
// GetFunction shows them and drift detection sees a change made here, as on AWS.
// https://docs.aws.amazon.com/lambda/latest/api/API_TagResource.html
// https://docs.aws.amazon.com/lambda/latest/api/API_UntagResource.html
// https://docs.aws.amazon.com/lambda/latest/api/API_ListTags.html
import { ServiceError } from '../../domain/serviceErrors.js';
import { echo } from '../../domain/errors.js';
import type { WorldResource } from '../../storage/world.js';
import { findFunction, notFound, splitFunctionName, type LambdaContext, type LambdaInputOf } from './functions.js';

// The Resource member's pattern for a function, as the API reference prints it.
const FUNCTION_ARN =
  'arn:(aws[a-zA-Z-]*)?:lambda:[a-z]{2}(-gov)?-[a-z]+-\\d{1}:\\d{12}:function:[a-zA-Z0-9-_]+(:(\\$LATEST|[a-zA-Z0-9-_]+))?';
const FUNCTION_ARN_REGEX = new RegExp(`^(?:${FUNCTION_ARN})$`);

type Tag = { Key: string; Value: string };

/** The function a Resource ARN names, in the caller's account and region; Lambda's refusals otherwise. */
function taggedFunction(ctx: LambdaContext, resource: string): WorldResource {
  if (!FUNCTION_ARN_REGEX.test(resource)) {
    throw new ServiceError(
      'ValidationException',
      `1 validation error detected: Value '${echo(resource)}' at 'resource' failed to satisfy constraint: Member must satisfy regular expression pattern: ${FUNCTION_ARN}`,
    );
  }
  const [, , , region, account] = resource.split(':');
  if (region !== ctx.caller.region || account !== ctx.caller.account) {
    throw notFound({ account, region }, splitFunctionName(resource).name);
  }
  return findFunction(ctx, resource).row;
}

const tagsOf = (row: WorldResource): Tag[] => {
  const tags = row.properties.Tags;
  return Array.isArray(tags) ? (tags as Tag[]) : [];
};

/** Writes the Tags property; tags are not configuration, so the RevisionId and LastModified stay. */
function saveTags(ctx: LambdaContext, row: WorldResource, tags: Tag[]): void {
  const properties: Record<string, unknown> = { ...row.properties, Tags: tags };
  if (!tags.length) delete properties.Tags;
  ctx.store.world.put({ ...row, properties });
}

export function tagResource(ctx: LambdaContext, input: LambdaInputOf<'TagResource'>) {
  const row = taggedFunction(ctx, input.Resource);
  const added = Object.entries(input.Tags);
  const kept = tagsOf(row).filter((t) => !Object.hasOwn(input.Tags, t.Key));
  saveTags(ctx, row, [...kept, ...added.map(([Key, Value]) => ({ Key, Value }))]);
  return undefined;
}

export function untagResource(ctx: LambdaContext, input: LambdaInputOf<'UntagResource'>) {
  const row = taggedFunction(ctx, input.Resource);
  const removed = new Set(input.TagKeys);
  saveTags(
    ctx,
    row,
    tagsOf(row).filter((t) => !removed.has(t.Key)),
  );
  return undefined;
}

export function listTags(ctx: LambdaContext, input: LambdaInputOf<'ListTags'>) {
  const row = taggedFunction(ctx, input.Resource);
  return { Tags: Object.fromEntries(tagsOf(row).map((t) => [t.Key, t.Value])) };
}
