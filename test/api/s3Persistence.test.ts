// Object bodies on disk: files beside the database survive a restart; what a crash left behind is swept on start;
// with --db :memory: nothing is written.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';

describe('object bodies beside the database', () => {
  it('keeps objects across a restart and sweeps bodies no row points at', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-s3-'));
    const db = join(dir, 'cfn.db');
    try {
      const first = await startServer({ db });
      const s3 = s3Client(first.endpoint);
      await s3.send(new CreateBucketCommand({ Bucket: 'kept-bucket' }));
      await s3.send(new PutObjectCommand({ Bucket: 'kept-bucket', Key: 'k', Body: 'survives' }));
      await first.close();
      expect(readdirSync(`${db}.objects`)).toHaveLength(1);
      writeFileSync(join(`${db}.objects`, 'left-by-a-crash.partial'), 'half');

      const second = await startServer({ db });
      const got = await s3Client(second.endpoint).send(new GetObjectCommand({ Bucket: 'kept-bucket', Key: 'k' }));
      expect(await got.Body!.transformToString()).toBe('survives');
      expect(existsSync(join(`${db}.objects`, 'left-by-a-crash.partial'))).toBe(false);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with --db :memory: writes nothing beside a database', async () => {
    const cwd = process.cwd();
    const before = existsSync(join(cwd, ':memory:.objects'));
    const server = await startServer({ db: ':memory:' });
    const s3 = s3Client(server.endpoint);
    await s3.send(new CreateBucketCommand({ Bucket: 'memory-bucket' }));
    await s3.send(new PutObjectCommand({ Bucket: 'memory-bucket', Key: 'k', Body: 'in memory' }));
    await server.close();
    expect(before).toBe(false);
    expect(existsSync(join(cwd, ':memory:.objects'))).toBe(false);
  });
});
