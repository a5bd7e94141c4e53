// What a person sees: the built bin run under a pseudo-terminal (`script` from util-linux) prints a readable banner,
// one line per call and one per stack operation; piped, or with --log-format json, it prints JSON lines.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { ROOT } from './dockerfile.js';

const BIN = join(ROOT, 'dist/cfn-local.cjs');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const FAILING = JSON.stringify({
  Resources: {
    Queue: { Type: 'AWS::SQS::Queue' },
    Topic: {
      Type: 'AWS::SNS::Topic',
      DependsOn: 'Queue',
      Metadata: { 'cfn-local': { Fail: ['Create'], Message: 'Injected failure' } },
    },
  },
});
const running: ChildProcess[] = [];

interface Server {
  output: () => string;
  client: CloudFormationClient;
  endpoint: string;
  /** Resolves once the output matches. */
  waitFor(pattern: RegExp): Promise<string>;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').replace(/\r/g, '');

/** Starts the bin on a free port, under a pseudo-terminal when `tty`, with stdout piped otherwise. */
async function startBin(
  args: string[],
  options: { tty: boolean; env?: Record<string, string>; known?: string },
): Promise<Server> {
  const argv = [BIN, ...(options.known ? [] : ['--port', '0']), '--db', ':memory:', ...args];
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CFN_LOCAL_') && k !== 'NO_COLOR')),
    ...options.env,
  };
  const child = options.tty
    ? spawn('script', ['-qfec', `exec ${[process.execPath, ...argv].map(shellQuote).join(' ')}`, '/dev/null'], {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out);
        if (match) return resolve(match[0]);
        if (child.exitCode !== null) return reject(new Error(`exited ${child.exitCode} before ${pattern}:\n${out}`));
        setTimeout(check, 20);
      };
      check();
    });
  const endpoint =
    options.known ?? /listening on (http:\/\/[\d.:]+)/.exec(plain(await waitFor(/listening on http:\/\/[\d.:]+/)))![1];
  if (options.known) await healthy(options.known, child);
  const client = new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return { output: () => out, client, endpoint, waitFor };
}

/** A stack whose second resource fails to create: a call that succeeds, one that fails, a rolled-back operation. */
async function exercise(server: Server): Promise<void> {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'demo', TemplateBody: FAILING }));
  expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('ROLLBACK_COMPLETE');
  await expect(server.client.send(new DescribeStacksCommand({ StackName: 'nope' }))).rejects.toThrow('does not exist');
  expect((await fetch(`${server.endpoint}/_cfn-local/faults`, { method: 'POST', body: '{}' })).status).toBe(400);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function healthy(endpoint: string, child: ChildProcess): Promise<void> {
  while (
    !(await fetch(`${endpoint}/_cfn-local/health`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, any>);

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error('dist/cfn-local.cjs is not built: run `npm run build` (npm test does)');
});

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('on a terminal', () => {
  it('prints the banner, one coloured line per call and a summary line per operation', async () => {
    const server = await startBin([], { tty: true });
    await exercise(server);
    await server.waitFor(/\/_cfn-local\/faults => 400/);
    const text = plain(server.output());
    expect(text).toContain(`cfn-local ${VERSION} listening on ${server.endpoint}`);
    expect(text).toContain('database: :memory:');
    expect(text).toContain(
      `export AWS_ENDPOINT_URL=${server.endpoint} AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1`,
    );
    expect(text).toMatch(/^\[[\d:.]+\] INFO: AWS cloudformation\.CreateStack demo => 200 \([\d.]+ ms\)$/m);
    expect(text).toMatch(/INFO: AWS cloudformation\.DescribeStacks nope => 400 ValidationError \([\d.]+ ms\)$/m);
    expect(text).toMatch(/INFO: cfn-local POST \/_cfn-local\/faults => 400 \w+ \([\d.]+ ms\)$/m);
    expect(text).toMatch(
      /WARN: demo CREATE_STACK → ROLLBACK_COMPLETE in \d+ ms \(1 created, 2 deleted, 1 failed\): Topic failed to create: Injected failure$/m,
    );
    expect(text).not.toContain('{"level"');
    // eslint-disable-next-line no-control-regex
    expect(server.output()).toMatch(/\u001b\[3\dm/);
  });

  it('prints no colour when NO_COLOR is set', async () => {
    const server = await startBin([], { tty: true, env: { NO_COLOR: '1' } });
    expect(server.output()).toContain('INFO: cfn-local');
    expect(server.output()).not.toContain('\u001b[');
  });

  it('prints JSON lines with --log-format json', async () => {
    const server = await startBin(['--log-format', 'json'], { tty: true });
    expect(jsonLines(plain(server.output()))[0]).toMatchObject({
      level: 30,
      version: VERSION,
      address: server.endpoint,
      db: ':memory:',
    });
  });
});

describe('piped (no terminal)', () => {
  it('prints JSON lines: the banner, each call and each operation with their fields', async () => {
    const server = await startBin([], { tty: false });
    await exercise(server);
    await server.waitFor(/_cfn-local\/faults => 400/);
    const lines = jsonLines(server.output());
    expect(lines[0]).toMatchObject({ msg: `cfn-local ${VERSION} listening on ${server.endpoint}`, db: ':memory:' });
    expect(lines.map((l) => l.call).filter(Boolean)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ service: 'cloudformation', action: 'CreateStack', resource: 'demo', status: 200 }),
        expect.objectContaining({
          service: 'cloudformation',
          action: 'DescribeStacks',
          resource: 'nope',
          status: 400,
          errorCode: 'ValidationError',
        }),
        expect.objectContaining({ service: 'cfn-local', action: 'POST /_cfn-local/faults', status: 400 }),
      ]),
    );
    expect(lines.find((l) => l.operation)).toMatchObject({
      level: 40,
      operation: {
        stack: 'demo',
        operation: 'CREATE_STACK',
        status: 'ROLLBACK_COMPLETE',
        created: 1,
        deleted: 2,
        failed: 1,
        reason: 'Topic failed to create: Injected failure',
      },
    });
  });

  it('--log-level warn keeps the per-call lines out and the failed operation in', async () => {
    const port = await freePort();
    const server = await startBin(['--log-level', 'warn', '--port', String(port)], {
      tty: false,
      known: `http://127.0.0.1:${port}`,
    });
    await exercise(server);
    await server.waitFor(/ROLLBACK_COMPLETE/);
    const lines = jsonLines(server.output());
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^demo CREATE_STACK → ROLLBACK_COMPLETE/)]);
  });
});

describe('--help and --version', () => {
  const runBin = (arg: string) => execFileSync(process.execPath, [BIN, arg], { encoding: 'utf8' });

  it('--version prints the package version', () => {
    expect(runBin('--version')).toBe(`${VERSION}\n`);
  });

  it('--help lists every flag with its environment variable and default', () => {
    const help = runBin('--help');
    for (const [flag, env, def] of [
      ['--port', 'CFN_LOCAL_PORT', '4581'],
      ['--log-format', 'CFN_LOCAL_LOG_FORMAT', 'auto'],
      ['--lambda-endpoint', 'CFN_LOCAL_LAMBDA_ENDPOINT', '(unset)'],
    ]) {
      expect(help).toMatch(new RegExp(`^  ${flag} +${env} +${def.replace(/[()]/g, '\\$&')} `, 'm'));
    }
  });
});
