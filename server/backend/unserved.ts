// A request for a service cfn-local does not serve, without a backend to forward it to: said plainly, in the
// envelope of that service's own protocol, so its client shows the message (JSON for awsJson and restJson
// services, AWS's XML ErrorResponse for the query and restXml ones).
import type { FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPES = /^application\/(x-amz-json-1\.[01]|json)\b/i;

/** Whether the request speaks a JSON protocol: an X-Amz-Target header or a JSON body (SQS, DynamoDB, Logs, IAM is query). */
export function speaksJson(req: FastifyRequest): boolean {
  const type = req.headers['content-type'] ?? '';
  return req.headers['x-amz-target'] !== undefined || JSON_TYPES.test(type);
}

export function unservedMessage(service: string, detail?: string): string {
  const name = service.replace(/[^\w.-]/g, '');
  const base = `cfn-local does not serve the ${name} API (the request was signed for ${name})`;
  return detail ? `${base}: ${detail}` : `${base}; start cfn-local with --backend moto to serve it (docs/backend.md).`;
}

export function answerUnserved(
  req: FastifyRequest,
  reply: FastifyReply,
  requestId: string,
  message: string,
  status = 400,
) {
  const code = status === 400 ? 'UnknownService' : 'ServiceUnavailable';
  reply.status(status).header('x-amzn-requestid', requestId);
  if (speaksJson(req)) {
    const type = req.headers['content-type'] ?? '';
    return reply
      .type(JSON_TYPES.test(type) ? type : 'application/x-amz-json-1.0')
      .header('x-amzn-errortype', code)
      .header('x-amzn-query-error', `${code};Sender`)
      .send(JSON.stringify({ __type: code, message }));
  }
  const text = message.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return reply
    .type('text/xml')
    .send(
      `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${text}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
    );
}
