// server/services: the one check cfn-local makes on a presigned S3 URL (signatures are never verified): that it has
// not expired, with S3's AccessDenied text. https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
import { S3Error } from '../../domain/s3Errors.js';

/** `20261201T184400Z` as a time. */
function amzDate(value: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : undefined;
}

export function checkPresignedExpiry(query: Readonly<Partial<Record<string, string>>>, now = Date.now()): void {
  const date = query['X-Amz-Date'];
  const expires = query['X-Amz-Expires'];
  if (date === undefined || expires === undefined || query['X-Amz-Credential'] === undefined) return;
  const signedAt = amzDate(date);
  const seconds = Number(expires);
  if (signedAt === undefined || !Number.isInteger(seconds) || seconds < 1 || seconds > 604800) {
    throw new S3Error(
      'AuthorizationQueryParametersError',
      400,
      'X-Amz-Expires must be less than a week (in seconds) that is 604800',
    );
  }
  if (now > signedAt + seconds * 1000) {
    throw new S3Error('AccessDenied', 403, 'Request has expired', {
      'X-Amz-Expires': expires,
      Expires: new Date(signedAt + seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      ServerTime: new Date(now).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
  }
}
