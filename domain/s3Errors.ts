// domain/s3Errors: S3's errors as values (code, HTTP status, AWS's message, the extra elements S3 adds such as
// BucketName or Key), travelling in S3's own `<Error>` envelope (server/services/s3.ts), not CloudFormation's.
// Codes and texts: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#ErrorCodeList

export class S3Error extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    /** Extra elements of the `<Error>` document, in order (`BucketName`, `Key`, `UploadId`, …). */
    readonly extra: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const isS3Error = (e: unknown): e is S3Error => e instanceof S3Error;

export const noSuchBucket = (bucket: string) =>
  new S3Error('NoSuchBucket', 404, 'The specified bucket does not exist', { BucketName: bucket });
export const noSuchKey = (key: string) =>
  new S3Error('NoSuchKey', 404, 'The specified key does not exist.', { Key: key });
export const noSuchUpload = (uploadId: string) =>
  new S3Error(
    'NoSuchUpload',
    404,
    'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
    { UploadId: uploadId },
  );
export const bucketNotEmpty = (bucket: string) =>
  new S3Error('BucketNotEmpty', 409, 'The bucket you tried to delete is not empty', { BucketName: bucket });
export const bucketAlreadyOwnedByYou = (bucket: string) =>
  new S3Error(
    'BucketAlreadyOwnedByYou',
    409,
    'Your previous request to create the named bucket succeeded and you already own it.',
    { BucketName: bucket },
  );
export const invalidBucketName = (bucket: string) =>
  new S3Error('InvalidBucketName', 400, 'The specified bucket is not valid.', { BucketName: bucket });
export const badDigest = (expected: string, calculated: string) =>
  new S3Error('BadDigest', 400, 'The Content-MD5 you specified did not match what we received.', {
    ExpectedDigest: expected,
    CalculatedDigest: calculated,
  });
export const invalidDigest = (given: string) =>
  new S3Error('InvalidDigest', 400, 'The Content-MD5 you specified was invalid.', { 'Content-MD5': given });
export const malformedXml = () =>
  new S3Error(
    'MalformedXML',
    400,
    'The XML you provided was not well-formed or did not validate against our published schema',
  );
export const invalidRange = (size: number, range: string) =>
  new S3Error('InvalidRange', 416, 'The requested range is not satisfiable', {
    RangeRequested: range,
    ActualObjectSize: String(size),
  });
export const invalidArgument = (message: string, name?: string, value?: string) =>
  new S3Error(
    'InvalidArgument',
    400,
    message,
    name === undefined ? {} : { ArgumentName: name, ArgumentValue: value ?? '' },
  );
/** What Node can send in a header (RFC 9110 field-value: tab, visible ASCII, obs-text), as S3 says it (InvalidArgument). */
const UNSENDABLE_HEADER_CHAR = /[^\t\x20-\x7e\x80-\xff]/;
/**
 * Throws S3's InvalidArgument for a header value a client asked for (`response-content-type=%0d%0a…`) that no
 * response can carry: a CR, LF or other control character, or a character past ISO-8859-1.
 */
export function checkHeaderValue(argumentName: string, value: string): void {
  if (UNSENDABLE_HEADER_CHAR.test(value))
    throw invalidArgument('Header value cannot be represented using ISO-8859-1.', argumentName, value);
}
export const invalidRequest = (message: string) => new S3Error('InvalidRequest', 400, message);
export const invalidPart = (uploadId: string, part: number, etag: string) =>
  new S3Error(
    'InvalidPart',
    400,
    "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
    { UploadId: uploadId, PartNumber: String(part), ETag: etag },
  );
export const invalidPartOrder = (uploadId: string) =>
  new S3Error(
    'InvalidPartOrder',
    400,
    'The list of parts was not in ascending order. Parts must be ordered by part number.',
    { UploadId: uploadId },
  );
export const entityTooSmall = (size: number, part: number, etag: string) =>
  new S3Error('EntityTooSmall', 400, 'Your proposed upload is smaller than the minimum allowed size', {
    ProposedSize: String(size),
    MinSizeAllowed: '5242880',
    PartNumber: String(part),
    ETag: etag,
  });
export const preconditionFailed = (condition: string) =>
  new S3Error('PreconditionFailed', 412, 'At least one of the pre-conditions you specified did not hold', {
    Condition: condition,
  });
export const notModified = () => new S3Error('NotModified', 304, 'Not Modified');
export const methodNotAllowed = (method: string, resource: string) =>
  new S3Error('MethodNotAllowed', 405, 'The specified method is not allowed against this resource.', {
    Method: method,
    ResourceType: resource,
  });
export const notImplementedS3 = (what: string) =>
  new S3Error(
    'NotImplemented',
    501,
    `A header or query you provided implies functionality that is not implemented (cfn-local does not serve ${what}; see docs/services.md).`,
  );
export const illegalLocationConstraint = (constraint: string | undefined, region: string) =>
  constraint === undefined
    ? new S3Error(
        'IllegalLocationConstraintException',
        400,
        'The unspecified location constraint is incompatible for the region specific endpoint this request was sent to.',
      )
    : new S3Error(
        'IllegalLocationConstraintException',
        400,
        `The ${constraint} location constraint is incompatible for the region specific endpoint this request was sent to.`,
        { Region: region },
      );
export const noSuchBucketPolicy = (bucket: string) =>
  new S3Error('NoSuchBucketPolicy', 404, 'The bucket policy does not exist', { BucketName: bucket });
export const noSuchTagSet = (bucket: string) =>
  new S3Error('NoSuchTagSet', 404, 'The TagSet does not exist', { BucketName: bucket });
export const noSuchLifecycleConfiguration = (bucket: string) =>
  new S3Error('NoSuchLifecycleConfiguration', 404, 'The lifecycle configuration does not exist', {
    BucketName: bucket,
  });
export const noSuchPublicAccessBlockConfiguration = (bucket: string) =>
  new S3Error('NoSuchPublicAccessBlockConfiguration', 404, 'The public access block configuration was not found', {
    BucketName: bucket,
  });
export const encryptionNotFound = (bucket: string) =>
  new S3Error(
    'ServerSideEncryptionConfigurationNotFoundError',
    404,
    'The server side encryption configuration was not found',
    { BucketName: bucket },
  );
export const malformedPolicy = (message: string) => new S3Error('MalformedPolicy', 400, message);
export const internalError = () =>
  new S3Error('InternalError', 500, 'We encountered an internal error. Please try again.');
