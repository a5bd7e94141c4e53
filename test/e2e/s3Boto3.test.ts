// boto3 against cfn-local's S3, path-style and virtual-hosted-style (boto3_s3.py prints what it saw).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { startServer, type TestServer } from '../helpers/server.js';
import { gate, run } from './clients.js';
import { anyBoto3 } from './s3Clients.js';

const SCRIPT = fileURLToPath(new URL('./boto3_s3.py', import.meta.url));
const python = await anyBoto3();
const boto3 = gate('boto3 S3', python);

describe.skipIf(boto3.skip)(boto3.title, () => {
  let server: TestServer;
  let seen: Record<string, any>;

  beforeAll(async () => {
    server = await startServer();
    const result = await run(python.path!, [SCRIPT, server.endpoint]);
    if (result.code !== 0) throw new Error(`boto3_s3.py exited ${result.code}:\n${result.stderr}`);
    seen = JSON.parse(result.stdout);
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it.each(['path', 'virtual'])('%s-style: put, get, range, multipart, presigned GET, list, errors, delete', (style) => {
    const out = seen[style];
    expect(out.putETag).toBe(out.md5);
    expect(out.get).toEqual({ body: 'hello boto3', type: 'text/plain', length: 11 });
    expect(out.range).toBe('boto3');
    expect(out.multipart.length).toBe(6 * 1024 * 1024);
    expect(out.multipart.etag).toMatch(/^"[0-9a-f]{32}-2"$/);
    expect(out.presigned).toBe('hello boto3');
    expect(out.list).toEqual({ keys: ['big.bin'], prefixes: ['dir/'] });
    expect(out.noSuchKey).toBe('NoSuchKey');
    expect(out.notEmpty).toBe('BucketNotEmpty');
    expect(out.bucketsAfter).not.toContain(`boto3-${style}`);
  });
});
