// Reads the S3 objects CloudFormation reads by URL (TemplateURL, StackPolicyURL, StackPolicyDuringUpdateURL, nested
// stacks' TemplateURL, AWS::Include's Location) from the simulated account's buckets, with CloudFormation's refusals.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateStack.html (TemplateURL)
import type { ReadonlyStore } from '../storage/index.js';
import { echo, validationError } from '../domain/errors.js';

/** Where an S3 URL points. */
export interface S3Location {
  bucket: string;
  key: string;
}

/** Templates read from S3 may be up to 1 MB (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html). */
export const MAX_TEMPLATE_URL_BYTES = 1_048_576;

const MORE = '\nFor more information check http://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html';

// AWS's own S3 hosts: `s3.amazonaws.com`, `s3.<region>.amazonaws.com`, `s3-<region>.amazonaws.com`, dualstack, China.
const AWS_S3_HOST = /^(?:(.+)\.)?s3(?:[.-](?:dualstack\.)?[a-z0-9-]+)?\.amazonaws\.com(?:\.cn)?$/;

/** The endpoint's own address, as a deploy tool pointed at cfn-local writes it: a name without dots, `*.localhost`, an IP. */
function localBucketHost(host: string): { local: boolean; bucket?: string } {
  if (host.endsWith('.localhost')) return { local: true, bucket: host.slice(0, -'.localhost'.length) };
  if (host === 'localhost' || !host.includes('.') || /^\d+\.\d+\.\d+\.\d+$/.test(host) || host.startsWith('['))
    return { local: true };
  const s3 = /^(.+?)\.s3\.localhost(?:\.localstack\.cloud)?$/.exec(host);
  return s3 ? { local: true, bucket: s3[1] } : { local: false };
}

/** The bucket and key of every URL form CloudFormation accepts; undefined for a URL that is not one. */
export function parseS3Url(url: string): S3Location | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  const host = parsed.hostname.toLowerCase();
  const aws = AWS_S3_HOST.exec(host);
  const local = aws ? undefined : localBucketHost(host);
  if (!aws && !local?.local) return undefined;
  const hostBucket = aws ? aws[1] : local!.bucket;
  const path = parsed.pathname.slice(1);
  try {
    if (hostBucket) return path ? { bucket: hostBucket, key: decodeURIComponent(path) } : undefined;
    const slash = path.indexOf('/');
    if (slash <= 0 || slash === path.length - 1) return undefined;
    return { bucket: decodeURIComponent(path.slice(0, slash)), key: decodeURIComponent(path.slice(slash + 1)) };
  } catch {
    return undefined;
  }
}

// AWS's text, with the size the limit is today (it said 460800, then 1000000, as the limit grew).
const tooLarge = () => validationError(`Template may not exceed ${MAX_TEMPLATE_URL_BYTES} bytes in size.`);

async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The host part of an `s3://` URI, as a URL parser reads it: `s3://bucket/key` → `bucket`. */
const s3UriHost = (url: string) => /^s3:\/\/([^/?#]*)/.exec(url)![1];

/**
 * The object's text, from the caller's account (buckets are found in any region, as S3 finds them). `field` names
 * the parameter in the refusals that name it (`TemplateURL must be a supported URL.`).
 */
export async function readS3Url(
  store: Pick<ReadonlyStore, 'world' | 'objects' | 'bodies'>,
  scope: { account: string; region: string },
  url: string,
  field = 'TemplateURL',
): Promise<string> {
  // AWS names the URI's host, the bucket (recorded with the bucket name masked as `<bucket_name>`).
  if (url.startsWith('s3://'))
    throw validationError(`S3 error: Domain name specified in ${echo(s3UriHost(url))} is not a valid S3 domain`);
  const location = parseS3Url(url);
  if (!location) throw validationError(`${field} must be a supported URL.`);
  const bucket = store.world.byNameInAccount(scope.account, 'AWS::S3::Bucket', location.bucket);
  if (!bucket) throw validationError(`S3 error: The specified bucket does not exist${MORE}`);
  const object = store.objects.get(scope.account, location.bucket, location.key);
  if (!object) throw validationError(`S3 error: The specified key does not exist.${MORE}`);
  if (object.size > MAX_TEMPLATE_URL_BYTES) throw tooLarge();
  const text = await readAll(store.bodies.read(object.bodyId), MAX_TEMPLATE_URL_BYTES);
  if (text === undefined) throw tooLarge();
  return text;
}
