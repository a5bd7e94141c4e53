// Signal URLs presigned as AWS presigns its S3 URLs for wait condition handles and custom resource ResponseURLs:
// SigV4 query parameters with a date and an expiry, signed with the database's key. A PUT without a valid signature
// is refused with the error S3 gives for it, so knowing a stack ARN is no longer enough to signal a stack.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Wait condition handle URLs: AWS's carry X-Amz-Expires=86399 (a day), longer than any wait (at most 12 hours). */
export const HANDLE_EXPIRES_S = 86_399;
/** Custom resource ResponseURLs: AWS's are good for two hours; longer when the handler may take longer. */
export const RESPONSE_EXPIRES_S = 7_200;

const PARAMS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
];
const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** What is signed: the path from /_cfn-local/ on (a proxy may put a prefix before it) and the query's own terms. */
function signature(key: Buffer, path: string, q: (name: string) => string | null | undefined): string {
  const from = path.indexOf('/_cfn-local/');
  const text = [from < 0 ? path : path.slice(from), q('X-Amz-Credential'), q('X-Amz-Date'), q('X-Amz-Expires')].join(
    '\n',
  );
  return createHmac('sha256', key).update(text).digest('hex');
}

/** The URL with its presigned query. */
export function presign(url: string, key: Buffer, now: Date, expiresSeconds: number, region: string): string {
  const date = amzDate(now);
  const params = new URLSearchParams({
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': `cfnlocal/${date.slice(0, 8)}/${region}/s3/aws4_request`,
    'X-Amz-Date': date,
    'X-Amz-Expires': String(expiresSeconds),
    'X-Amz-SignedHeaders': 'host',
  });
  params.set(
    'X-Amz-Signature',
    signature(key, new URL(url).pathname, (n) => params.get(n)),
  );
  return `${url}?${params}`;
}

export interface S3Refusal {
  status: number;
  code: string;
  message: string;
}

/** Undefined when the request's presigned query is valid now; else S3's refusal of it. */
export function checkPresigned(
  path: string,
  query: Record<string, string | undefined>,
  key: Buffer,
  now: Date,
): S3Refusal | undefined {
  const present = PARAMS.filter((p) => query[p] !== undefined);
  // An unsigned PUT to a bucket that is not public: S3's plain AccessDenied.
  if (present.length === 0) return { status: 403, code: 'AccessDenied', message: 'Access Denied' };
  const date = AMZ_DATE.exec(query['X-Amz-Date'] ?? '');
  const expires = Number(query['X-Amz-Expires']);
  if (
    present.length < PARAMS.length ||
    !date ||
    !Number.isInteger(expires) ||
    query['X-Amz-Algorithm'] !== 'AWS4-HMAC-SHA256'
  ) {
    return {
      status: 400,
      code: 'AuthorizationQueryParametersError',
      message:
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
    };
  }
  const expected = Buffer.from(signature(key, path, (n) => query[n]));
  const given = Buffer.from(query['X-Amz-Signature'] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
  if (now.getTime() > signedAt + expires * 1000)
    return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
  return undefined;
}

/** S3's XML error document. */
export function s3ErrorXml(refusal: S3Refusal, requestId: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message><RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`;
}
