// server/services: the JSON error envelope shared by the awsJson (SSM) and restJson (Lambda) services.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, isServiceError } from '../../domain/serviceErrors.js';
import type { WireModel } from '../protocol/model.js';
import { BodyTooLarge } from './body.js';

/** What any unexpected failure becomes; the detail is logged, never sent. */
export const internalError = (code = 'InternalServerError') =>
  new ServiceError(code, 'We encountered an internal error. Please try again.', 500);

/** An operation of the model that cfn-local does not serve (501: the SDKs do not retry it). */
export const notServed = (service: string, action: string) =>
  new ServiceError('NotImplemented', `cfn-local does not implement the ${service} action ${action} yet`, 501);

/** The thrown value as the service's error: its own, a too-large body, or an internal error (logged). */
export function asServiceError(req: FastifyRequest, err: unknown, internalCode?: string): ServiceError {
  if (isServiceError(err)) return err;
  if (err instanceof BodyTooLarge) return new ServiceError('RequestEntityTooLargeException', err.message, 413);
  req.log.error({ err }, 'unexpected failure');
  return internalError(internalCode);
}

/**
 * Sends `{"__type": code, "message": …}` (plus the error shape's other members). For a query-compatible service
 * (SSM), `x-amzn-query-error: <code>;<Sender|Receiver>` carries the code the query protocol would have used.
 */
export function sendJsonError(
  reply: FastifyReply,
  err: ServiceError,
  contentType: string,
  model?: WireModel,
  extraHeaders: Record<string, string> = {},
) {
  const modelError = model?.errors[err.code];
  if (modelError?.code) reply.header('x-amzn-query-error', `${modelError.code};${modelError.type}`);
  for (const [k, v] of Object.entries(extraHeaders)) reply.header(k, v);
  const body = { __type: err.code, ...err.fields, message: err.message };
  return reply.status(err.status).type(contentType).send(JSON.stringify(body));
}
