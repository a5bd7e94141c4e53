// S3 clients for the tests: path-style, and virtual-hosted-style (`bucket.localhost`, resolved to loopback here,
// as a machine without systemd-resolved does not resolve *.localhost names).
import { lookup } from 'node:dns';
import { Agent } from 'node:http';
import { S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

const loopbackAgent = new Agent({
  lookup: ((host: string, options: object, callback: (...args: unknown[]) => void) =>
    lookup(host.endsWith('.localhost') ? '127.0.0.1' : host, options, callback)) as never,
});

export function s3Client(endpoint: string, style: 'path' | 'virtual' = 'path', region = 'us-east-1'): S3Client {
  if (style === 'path') return new S3Client({ endpoint, region, forcePathStyle: true, credentials: CREDENTIALS });
  const url = new URL(endpoint);
  return new S3Client({
    endpoint: `http://localhost:${url.port}`,
    region,
    forcePathStyle: false,
    credentials: CREDENTIALS,
    requestHandler: new NodeHttpHandler({ httpAgent: loopbackAgent }),
  });
}
