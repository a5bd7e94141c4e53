// The container image's /app holds only what scripts/runtime-files.mjs copies (no dev dependencies, no sources):
// the server must start from such a folder alone, read a YAML template and log readably through the bundled
// pino-pretty.
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { ROOT } from './dockerfile.js';

const scratch = mkdtempSync(join(tmpdir(), 'cfn-local-runtime-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the runtime files', () => {
  it('start the server alone (no node_modules beyond them) and serve a YAML template', async () => {
    const app = join(scratch, 'app');
    execFileSync(process.execPath, [join(ROOT, 'scripts/runtime-files.mjs'), app], { cwd: ROOT });
    expect(existsSync(join(app, 'node_modules/fastify'))).toBe(false);
    const child = spawn(
      process.execPath,
      ['dist/cfn-local.cjs', '--port', '0', '--db', ':memory:', '--log-format', 'pretty'],
      {
        cwd: app,
        env: { ...process.env, NODE_PATH: '', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      child.stderr!.on('data', (d) => (out += d));
      const endpoint = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d) => {
          out += d;
          const match = /listening on (http:\/\/[\d.:]+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      expect(out).toMatch(/^\[[\d:.]+\] INFO: cfn-local \S+ listening on/);
      const client = new CloudFormationClient({
        endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
      });
      const { StackId } = await client.send(
        new CreateStackCommand({
          StackName: 'yaml',
          TemplateBody: 'Resources:\n  Topic:\n    Type: AWS::SNS::Topic\n',
        }),
      );
      expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
