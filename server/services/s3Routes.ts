// server/services: which S3 operation a request is. S3 chooses by method, by whether a bucket and a key are
// addressed, by sub-resource query keys (`?versioning`, `?uploads`, `uploadId`) and by the copy-source header.
// The SDK model's URIs (`/{Key+}?x-id=PutObject`) are not enough: UploadPart and PutObject share one.
import { methodNotAllowed, notImplementedS3 } from '../../domain/s3Errors.js';

/** Where a request points: the service, a bucket, or an object. */
export interface S3Address {
  bucket?: string;
  key?: string;
}

/** Bucket sub-resources served, by method: the query key selects the operation. */
const BUCKET_SUBRESOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  GET: {
    location: 'GetBucketLocation',
    versioning: 'GetBucketVersioning',
    encryption: 'GetBucketEncryption',
    policy: 'GetBucketPolicy',
    publicAccessBlock: 'GetPublicAccessBlock',
    lifecycle: 'GetBucketLifecycleConfiguration',
    tagging: 'GetBucketTagging',
    versions: 'ListObjectVersions',
  },
  PUT: {
    versioning: 'PutBucketVersioning',
    encryption: 'PutBucketEncryption',
    policy: 'PutBucketPolicy',
    publicAccessBlock: 'PutPublicAccessBlock',
    lifecycle: 'PutBucketLifecycleConfiguration',
    tagging: 'PutBucketTagging',
  },
  DELETE: {
    encryption: 'DeleteBucketEncryption',
    policy: 'DeleteBucketPolicy',
    publicAccessBlock: 'DeletePublicAccessBlock',
    lifecycle: 'DeleteBucketLifecycle',
    tagging: 'DeleteBucketTagging',
  },
  POST: { delete: 'DeleteObjects' },
};

/** S3's sub-resources (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTAuthentication.html): any other is not served. */
const SUBRESOURCES = [
  'accelerate',
  'acl',
  'analytics',
  'attributes',
  'cors',
  'delete',
  'encryption',
  'intelligent-tiering',
  'inventory',
  'legal-hold',
  'lifecycle',
  'location',
  'logging',
  'metadataConfiguration',
  'metrics',
  'notification',
  'object-lock',
  'ownershipControls',
  'partNumber',
  'policy',
  'policyStatus',
  'publicAccessBlock',
  'replication',
  'requestPayment',
  'restore',
  'retention',
  'select',
  'session',
  'tagging',
  'torrent',
  'uploadId',
  'uploads',
  'versionId',
  'versioning',
  'versions',
  'website',
];

function unservedSubresource(query: Record<string, string>, served: readonly string[]): string | undefined {
  return SUBRESOURCES.find((s) => s in query && !served.includes(s));
}

function bucketOperation(method: string, query: Record<string, string>): string {
  const subs = BUCKET_SUBRESOURCES[method] ?? {};
  const sub = Object.keys(subs).find((s) => s in query);
  if (sub) return subs[sub];
  const unserved = unservedSubresource(query, []);
  if (unserved) throw notImplementedS3(`the ?${unserved} sub-resource (${method})`);
  if (method === 'GET') return query['list-type'] === '2' ? 'ListObjectsV2' : 'ListObjects';
  const plain: Record<string, string> = { PUT: 'CreateBucket', DELETE: 'DeleteBucket', HEAD: 'HeadBucket' };
  if (plain[method]) return plain[method];
  throw methodNotAllowed(method, 'BUCKET');
}

function objectOperation(method: string, query: Record<string, string>, headers: Record<string, unknown>): string {
  const upload = 'uploadId' in query;
  const copy = headers['x-amz-copy-source'] !== undefined;
  const unserved = unservedSubresource(query, ['uploadId', 'uploads', 'partNumber', 'versionId']);
  if (unserved) throw notImplementedS3(`the ?${unserved} sub-resource (${method} on an object)`);
  switch (method) {
    case 'GET':
      return upload ? 'ListParts' : 'GetObject';
    case 'HEAD':
      return 'HeadObject';
    case 'PUT':
      if (upload && copy) throw notImplementedS3('UploadPartCopy');
      return upload ? 'UploadPart' : copy ? 'CopyObject' : 'PutObject';
    case 'DELETE':
      return upload ? 'AbortMultipartUpload' : 'DeleteObject';
    case 'POST':
      if ('uploads' in query) return 'CreateMultipartUpload';
      if (upload) return 'CompleteMultipartUpload';
      throw notImplementedS3('POST object (browser form uploads)');
    default:
      throw methodNotAllowed(method, 'OBJECT');
  }
}

export function s3OperationFor(
  method: string,
  address: S3Address,
  query: Record<string, string>,
  headers: Record<string, unknown>,
): string {
  if (address.bucket === undefined) {
    if (method === 'GET') return 'ListBuckets';
    throw methodNotAllowed(method, 'SERVICE');
  }
  return address.key === undefined ? bucketOperation(method, query) : objectOperation(method, query, headers);
}

// Virtual-hosted-style hosts: `bucket.s3.<anything>`, `bucket.s3-<region>.<anything>`, `bucket.localhost`.
const VIRTUAL_HOST = /^(.+?)\.s3(?:[.-][^.]+)?\.[^]*$/;

export function bucketFromHost(host: string): string | undefined {
  const s3 = VIRTUAL_HOST.exec(host);
  if (s3) return s3[1];
  if (host.endsWith('.localhost') && host !== 's3.localhost') return host.slice(0, -'.localhost'.length);
  return undefined;
}

/** The bucket and key of a request, from its Host header (virtual-hosted style) or its path (path style). */
export function s3Address(host: string, rawPath: string): S3Address {
  const decode = (s: string) => decodeURIComponent(s);
  const fromHost = bucketFromHost(host);
  if (fromHost !== undefined) {
    const key = rawPath.slice(1);
    return { bucket: fromHost, key: key === '' ? undefined : decode(key) };
  }
  const path = rawPath.slice(1);
  if (path === '') return {};
  const slash = path.indexOf('/');
  if (slash === -1) return { bucket: decode(path) };
  const key = path.slice(slash + 1);
  return { bucket: decode(path.slice(0, slash)), key: key === '' ? undefined : decode(key) };
}
