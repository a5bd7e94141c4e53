// Runs the snippets of docs/quickstart.md and docs/container.md verbatim (only the endpoint is pointed at a live
// test server), so the docs cannot drift from what cfn-local and the real clients do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../helpers/server.js';
import { AWS_CLI, PYTHON, awsCliAvailable, awsCliV1, boto3Available, clientEnv, gate, run } from './clients.js';
import { ROOT } from './dockerfile.js';

const DOC_ENDPOINT = 'http://127.0.0.1:4581';

/** The one fenced block of a language (optionally: containing some text) in a docs file. */
function fenced(doc: string, lang: string, filter: (block: string) => boolean = () => true): string {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const found = [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))]
    .map((m) => m[1])
    .filter(filter);
  if (found.length !== 1) throw new Error(`${doc}: expected one \`\`\`${lang} block, found ${found.length}`);
  return found[0];
}
const only = (lang: string, filter?: (block: string) => boolean) => fenced('docs/quickstart.md', lang, filter);

const cli = gate('quick start with the AWS CLI v2', await awsCliAvailable());
const v1 = await awsCliV1();
const cliV1 = gate('quick start with the AWS CLI v1', v1.availability);
const boto3 = gate('quick start with boto3', await boto3Available());

describe('docs/quickstart.md', () => {
  let server: TestServer;
  let dir: string;
  const snippet = (block: string) => {
    expect(block).toContain(DOC_ENDPOINT);
    return block.replaceAll(DOC_ENDPOINT, server.endpoint);
  };

  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'cfn-local-quickstart-'));
    writeFileSync(join(dir, 'app.yaml'), only('yaml'));
    // Bare imports in quickstart.mjs resolve through node_modules beside it, as in a user's project.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
  });

  it('starts with the README commands and the default port', () => {
    expect(only('sh', (b) => b.includes('npm start'))).toContain('npm install && npm start');
  });

  /** Runs the quick start's AWS CLI block with `aws` on PATH being the given CLI, in the stack name given. */
  const cliBlock = (cli: string, stack: string) => {
    const script = snippet(only('sh', (b) => b.includes('cloudformation'))).replaceAll('demo', stack);
    const bin = join(dir, `bin-${stack}`);
    mkdirSync(bin);
    symlinkSync(cli, join(bin, 'aws'));
    const env = clientEnv({ PATH: `${bin}:${process.env.PATH}` });
    for (const name of ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION', 'AWS_DEFAULT_REGION'])
      delete env[name];
    return run('/bin/bash', ['-e', '-c', script], { cwd: dir, env });
  };

  it.skipIf(cli.skip)(`the AWS CLI block deploys, describes and deletes the stack: ${cli.title}`, async () => {
    const result = await cliBlock(AWS_CLI, 'demo');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Successfully created/updated stack - demo');
    expect(result.stdout).toContain('"CREATE_COMPLETE"');
    expect(result.stdout).toContain('"ExportName": "demo-QueueArn"');
  });

  // CLI v1 ignores AWS_REGION and stops with "You must specify a region": the block exports AWS_DEFAULT_REGION too.
  it.skipIf(cliV1.skip)(`the AWS CLI block works with CLI v1 too: ${cliV1.title}`, async () => {
    const result = await cliBlock(v1.cli!, 'demo-v1');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Successfully created/updated stack - demo-v1');
  });

  it('the JavaScript SDK block creates a stack and its waiter sees CREATE_COMPLETE', async () => {
    writeFileSync(join(dir, 'quickstart.mjs'), snippet(only('js')));
    const result = await run(process.execPath, ['quickstart.mjs'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^CREATE_COMPLETE \[/);
    expect(result.stdout).toContain("OutputValue: 'arn:aws:sqs:us-east-1:000000000000:demo-js-dev-jobs'");
  });

  it.skipIf(boto3.skip)(
    `the boto3 block creates a stack and its waiter sees CREATE_COMPLETE: ${boto3.title}`,
    async () => {
      writeFileSync(join(dir, 'quickstart.py'), snippet(only('python')));
      const result = await run(PYTHON, ['quickstart.py'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('CREATE_COMPLETE\n');
    },
  );
});

describe('docs/container.md', () => {
  it('the library block starts buildApp on a free port, answers ListStacks and closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-library-'));
    // A project that installed cfn-local (from a path) and the SDK.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'cfn-local'), 'dir');
    symlinkSync(join(ROOT, 'node_modules', '@aws-sdk'), join(dir, 'node_modules', '@aws-sdk'), 'dir');
    writeFileSync(
      join(dir, 'library.mjs'),
      fenced('docs/container.md', 'js', (block) => block.includes('buildApp')),
    );
    const result = await run(process.execPath, ['library.mjs'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+ 0\n$/);
  });
});
