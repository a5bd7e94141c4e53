// The AWS CLI against cfn-local's S3: `aws s3 mb/cp/ls/presign/rm/rb`, and a template over TemplateBody's 51,200
// bytes deployed from S3 by TemplateURL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { clientEnv, gate, run, type RunResult } from './clients.js';
import { anyAwsCli } from './s3Clients.js';

const cliFound = await anyAwsCli();
const cli = gate('AWS CLI S3', cliFound);
const dir = mkdtempSync(join(tmpdir(), 'cfn-local-s3-cli-'));
// AWS CLI v1 reads the region from AWS_DEFAULT_REGION only.
const ENV = clientEnv({ AWS_DEFAULT_REGION: 'us-east-1' });

// Each CLI start costs seconds on a loaded machine: the steps get minutes, not vitest's default 30 s.
const STEP = 240_000;

describe.skipIf(cli.skip)(cli.title, () => {
  let server: TestServer;
  const aws = (...args: string[]): Promise<RunResult> =>
    run(cliFound.path!, ['--endpoint-url', server.endpoint, ...args], { cwd: dir, env: ENV });
  const ok = (r: RunResult) => {
    if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}${r.stdout}`);
    return r.stdout;
  };

  beforeAll(async () => {
    server = await startServer();
    writeFileSync(join(dir, 'small.txt'), 'hello from the cli\n');
    writeFileSync(join(dir, 'big.bin'), Buffer.alloc(12 * 1024 * 1024, 7));
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  }, STEP);

  it(
    'mb, cp up (one part and multipart), ls, cp down',
    async () => {
      expect(ok(await aws('s3', 'mb', 's3://cli-bucket'))).toContain('make_bucket: cli-bucket');
      ok(await aws('s3', 'cp', 'small.txt', 's3://cli-bucket/docs/small.txt'));
      ok(await aws('s3', 'cp', 'big.bin', 's3://cli-bucket/big.bin'));
      const listing = ok(await aws('s3', 'ls', 's3://cli-bucket/'));
      expect(listing).toMatch(/PRE docs\//);
      expect(listing).toMatch(/12582912 big\.bin/);
      expect(ok(await aws('s3', 'ls', 's3://cli-bucket/docs/'))).toMatch(/19 small\.txt/);
      ok(await aws('s3', 'cp', 's3://cli-bucket/big.bin', 'big.copy'));
      const digest = (f: string) =>
        createHash('md5')
          .update(readFileSync(join(dir, f)))
          .digest('hex');
      expect(digest('big.copy')).toBe(digest('big.bin'));
      expect(ok(await aws('s3', 'cp', 's3://cli-bucket/docs/small.txt', '-'))).toBe('hello from the cli\n');
    },
    STEP,
  );

  it(
    'presign gives a URL any HTTP client can GET',
    async () => {
      const url = ok(await aws('s3', 'presign', 's3://cli-bucket/docs/small.txt', '--expires-in', '300')).trim();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('hello from the cli\n');
    },
    STEP,
  );

  it(
    'rb refuses a bucket with objects; rm --recursive empties it; then rb removes it',
    async () => {
      const refused = await aws('s3', 'rb', 's3://cli-bucket');
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('BucketNotEmpty');
      expect(ok(await aws('s3', 'rm', 's3://cli-bucket', '--recursive'))).toContain('delete: s3://cli-bucket/big.bin');
      ok(await aws('s3', 'rb', 's3://cli-bucket'));
      expect(ok(await aws('s3', 'ls'))).not.toContain('cli-bucket');
    },
    STEP,
  );

  it(
    'create-stack --template-url deploys a template over 51,200 bytes uploaded with `aws s3 cp`',
    async () => {
      ok(await aws('s3', 'mb', 's3://deploy-artifacts'));
      const padding = 'x'.repeat(60_000);
      writeFileSync(
        join(dir, 'large.yaml'),
        `Metadata:\n  Padding: ${padding}\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n`,
      );
      ok(await aws('s3', 'cp', 'large.yaml', 's3://deploy-artifacts/templates/large.yaml'));
      const url = `https://deploy-artifacts.s3.us-east-1.amazonaws.com/templates/large.yaml`;
      const created = JSON.parse(
        ok(
          await aws(
            'cloudformation',
            'create-stack',
            '--stack-name',
            'large-template',
            '--template-url',
            url,
            '--output',
            'json',
          ),
        ),
      );
      expect((await waitForStack(server.client, created.StackId)).StackStatus).toBe('CREATE_COMPLETE');
    },
    STEP,
  );
});
