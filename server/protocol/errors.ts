// server/protocol: the awsQuery XML envelope of an AWS error; the errors themselves are domain/errors.ts.
import type { AwsError } from '../../domain/errors.js';
import { escapeXml, XMLNS } from './xml.js';

/** AWS's query-protocol error document (served as text/xml with err.status). */
export function encodeError(err: AwsError, requestId: string): string {
  return (
    `<ErrorResponse xmlns="${XMLNS}"><Error><Type>${err.type}</Type><Code>${err.code}</Code>` +
    `<Message>${escapeXml(err.message)}</Message></Error><RequestId>${escapeXml(requestId)}</RequestId></ErrorResponse>`
  );
}
