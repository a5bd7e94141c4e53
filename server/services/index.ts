// server/services: the one table of AWS services served on the port, and how a request finds its service.
import type { FastifyRequest } from 'fastify';
import { credentialScope } from '../protocol/index.js';
import { CLOUDFORMATION } from './cloudformation.js';
import { S3 } from './s3.js';
import { SSM } from './ssm.js';
import { STS } from './sts.js';
import { LAMBDA } from './lambda.js';
import { CLOUD_CONTROL } from './cloudcontrol.js';
import { SFN } from './sfn.js';
import type { AwsService, RoutingFacts } from './types.js';

export type { AwsService, RoutingFacts, ServiceDeps, ServiceRequest } from './types.js';

/**
 * Every service on the port. The first entry is also the fallback for a request nothing else claims, as cfn-local
 * was a CloudFormation endpoint first (an unsigned `POST /` with `Action=…` keeps working).
 */
export const SERVICES: readonly AwsService[] = [CLOUDFORMATION, S3, SSM, STS, LAMBDA, CLOUD_CONTROL, SFN];

/** The credential scope of the Authorization header, else of a presigned URL's X-Amz-Credential. */
export function scopeOf(req: FastifyRequest, query: Record<string, string>) {
  return credentialScope(req.headers.authorization) ?? credentialScope(query['X-Amz-Credential']);
}

export function routingFacts(req: FastifyRequest, query: Record<string, string>): RoutingFacts {
  const url = req.raw.url ?? '/';
  const q = url.indexOf('?');
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  return { method: req.method, path: q === -1 ? url : url.slice(0, q), host, query };
}

export type Routed = { service: AwsService } | { unknownService: string };

/**
 * AWS's own order: the service a request was signed for (its credential scope, in the Authorization header or a
 * presigned URL's query); for an unsigned request, the `X-Amz-Target` header's prefix, then what an entry claims
 * from the Host header or path; else the first entry.
 */
export function route(req: FastifyRequest, facts: RoutingFacts, services = SERVICES): Routed {
  const scope = scopeOf(req, facts.query);
  if (scope?.service) {
    const signed = services.find((s) => s.signingName === scope.service);
    return signed ? { service: signed } : { unknownService: scope.service };
  }
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') {
    const prefix = target.slice(0, Math.max(0, target.lastIndexOf('.')));
    const byTarget = services.find((s) => s.targetPrefixes?.includes(prefix));
    if (byTarget) return { service: byTarget };
  }
  return { service: services.find((s) => s.claims?.(facts)) ?? services[0] };
}
