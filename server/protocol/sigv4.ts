// server/protocol: reads the caller's access key and region from a SigV4 credential scope
// (Authorization header or presigned X-Amz-Credential); signatures are never verified.

/** `AKID/20261130/us-east-1/cloudformation/aws4_request`, split into its parts. */
export interface CredentialScope {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

const CREDENTIAL = /Credential=([^,\s]+)/;

/**
 * Parses either an Authorization header (`AWS4-HMAC-SHA256 Credential=…/aws4_request, …`)
 * or the value of a presigned URL's `X-Amz-Credential` query parameter (already URL-decoded).
 */
export function credentialScope(value?: string): CredentialScope | undefined {
  if (!value) return undefined;
  const scope = value.includes('Credential=') ? CREDENTIAL.exec(value)?.[1] : value.trim();
  const parts = scope?.split('/');
  // SigV4a scopes (`AKID/date/service/aws4_request`) carry no region: the caller falls back.
  if (!parts || parts.length !== 5 || parts[4] !== 'aws4_request' || !parts[0]) return undefined;
  const [accessKeyId, date, region, service] = parts;
  return { accessKeyId, date, region, service };
}

/** The signing region, e.g. `us-east-1`; undefined when absent or unparseable. */
export function regionFromAuthorization(header?: string): string | undefined {
  return credentialScope(header)?.region || undefined;
}

/** The access key id the request was signed with. */
export function accessKeyFromAuthorization(header?: string): string | undefined {
  return credentialScope(header)?.accessKeyId;
}
