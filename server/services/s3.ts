// server/services: the S3 entry of SERVICES: restXml over every path, path-style or virtual-hosted-style addressing,
// aws-chunked bodies decoded as they stream, answers and errors in S3's own XML envelope.
import { randomBytes } from 'node:crypto';
import { Readable, pipeline } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { S3_ACTIONS } from '../../handlers/s3/index.js';
import { NOT_IMPLEMENTED, rowOf } from '../../handlers/actionTable.js';
import {
  S3Error,
  checkHeaderValue,
  internalError,
  isS3Error,
  malformedXml,
  notImplementedS3,
} from '../../domain/s3Errors.js';
import {
  AwsChunkedDecoder,
  DecodedLengthMismatch,
  MalformedChunk,
  declaredDecodedLength,
  isAwsChunked,
} from '../protocol/awsChunked.js';
import {
  MalformedXml,
  decodeRestInput,
  encodeRestOutput,
  parseXmlPayload,
  s3Operation,
  s3Shape,
} from '../protocol/restXml.js';
import { escapeXml } from '../protocol/xml.js';
import { readText } from './body.js';
import { bucketFromHost, s3Address, s3OperationFor } from './s3Routes.js';
import { checkPresignedExpiry } from './s3Presign.js';
import type { AwsService, ServiceRequest } from './types.js';
import { noteCall } from '../requestLog.js';

type Obj = Record<string, unknown>;

function errorXml(err: S3Error, requestId: string, hostId: string): string {
  const extra = Object.entries(err.extra)
    .map(([k, v]) => `<${k}>${escapeXml(v)}</${k}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${err.code}</Code><Message>${escapeXml(err.message)}</Message>${extra}<RequestId>${requestId}</RequestId><HostId>${hostId}</HostId></Error>`;
}

/** The request body, as the operation's payload member wants it: a stream, an XML structure, or text. */
async function payloadOf(operation: string, sr: ServiceRequest): Promise<Obj> {
  const inputName = s3Operation(operation).input;
  const shape = inputName ? s3Shape(inputName) : undefined;
  const member = shape?.type === 'structure' ? shape.members.find((m) => m.location === 'payload') : undefined;
  if (!member) return {};
  const headers = sr.req.headers;
  let body: Readable = sr.body;
  if (isAwsChunked(headers)) {
    const decoder = new AwsChunkedDecoder(declaredDecodedLength(headers));
    // A malformed body can fail the decoder before its reader is attached: the error stays on the stream for it.
    body = pipeline(sr.body, decoder, () => undefined);
    decoder.on('error', () => undefined);
  }
  const type = s3Shape(member.shape).type;
  if (type === 'stream') return { [member.name]: body };
  const text = await readText(body);
  if (type === 'structure') return text.trim() === '' ? {} : { [member.name]: parseXmlPayload(member.shape, text) };
  return { [member.name]: text };
}

function send(reply: FastifyReply, method: string, operation: string, output: Obj | undefined) {
  const status = output?.$status as number | undefined;
  const res = encodeRestOutput(operation, output);
  // A value no response can carry fails at writeHead, past S3's envelope (Fastify's JSON 500): refused here.
  try {
    for (const [name, value] of Object.entries(res.headers)) checkHeaderValue(name, value);
  } catch (err) {
    if (res.body instanceof Readable) res.body.destroy();
    throw err;
  }
  reply.status(status ?? res.status).headers(res.headers);
  // GetBucketLocation's document is its one member's text: <LocationConstraint>eu-west-1</LocationConstraint>.
  if (operation === 'GetBucketLocation') {
    const region = escapeXml(String(output?.LocationConstraint ?? ''));
    return reply
      .type('application/xml')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${region}</LocationConstraint>`,
      );
  }
  if (method === 'HEAD' || res.body === undefined) return reply.send();
  if (typeof res.body === 'string')
    return reply.type(operation === 'GetBucketPolicy' ? 'application/json' : 'application/xml').send(res.body);
  return reply.send(res.body);
}

function toS3Error(err: unknown): S3Error {
  if (isS3Error(err)) return err;
  if (err instanceof MalformedXml) return malformedXml();
  if (err instanceof DecodedLengthMismatch)
    return new S3Error(
      'IncompleteBody',
      400,
      'You did not provide the number of bytes specified by the Content-Length HTTP header',
      { NumberBytesExpected: String(err.expected), NumberBytesProvided: String(err.provided) },
    );
  if (err instanceof MalformedChunk)
    return new S3Error('IncompleteBody', 400, 'The request body terminated unexpectedly');
  if (err instanceof URIError) return new S3Error('InvalidURI', 400, "Couldn't parse the specified URI.");
  return internalError();
}

async function handle(sr: ServiceRequest) {
  const { req, reply, requestId, query } = sr;
  const hostId = randomBytes(24).toString('base64');
  reply.header('x-amz-request-id', requestId).header('x-amz-id-2', hostId);
  try {
    checkPresignedExpiry(query);
    const url = req.raw.url ?? '/';
    const path = url.split('?')[0];
    const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    const address = s3Address(host, path);
    const operation = s3OperationFor(req.method, address, query, req.headers);
    noteCall(req, { action: operation, resource: address.bucket });
    const handler = rowOf(S3_ACTIONS, operation);
    if (handler === undefined || handler === NOT_IMPLEMENTED) throw notImplementedS3(operation);
    const labels = {
      ...(address.bucket !== undefined ? { Bucket: address.bucket } : {}),
      ...(address.key !== undefined ? { Key: address.key } : {}),
    };
    const input = {
      ...decodeRestInput(operation, { headers: req.headers, query, labels }),
      ...(await payloadOf(operation, sr)),
    };
    const output = await handler({ store: sr.deps.store, caller: sr.caller, requestId }, input);
    return send(reply, req.method, operation, output);
  } catch (err) {
    const s3err = toS3Error(err);
    if (s3err.code === 'InternalError') req.log.error({ err }, 'unexpected failure');
    reply.status(s3err.status);
    if (req.method === 'HEAD' || s3err.status === 304) return reply.send();
    return reply.type('application/xml').send(errorXml(s3err, requestId, hostId));
  }
}

export const S3: AwsService = {
  signingName: 's3',
  // Unsigned: a virtual-hosted Host, or any path but `/` (which stays CloudFormation's, as before S3 was served).
  claims: (facts) => bucketFromHost(facts.host) !== undefined || /^s3[.-]/.test(facts.host) || facts.path !== '/',
  handle,
};
