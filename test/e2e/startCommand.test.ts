// Runs the container image's start command and HEALTHCHECK outside Docker (no engine here): health, graceful stop,
// persistence in the db file, and the --db/--port/--host flags of server/start.ts.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { ROOT, runtimeStage } from './dockerfile.js';
import { run } from './clients.js';

const IMAGE = runtimeStage();
const TEMPLATE = readFileSync(new URL('./fixtures/app.yaml', import.meta.url), 'utf8');
const started: ChildProcess[] = [];

interface Running {
  child: ChildProcess;
  endpoint: string;
  client: CloudFormationClient;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The image's environment with the given overrides (the developer's own CFN_LOCAL_* never leak in). */
function imageEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CFN_LOCAL_')));
  return { ...env, ...IMAGE.env, CFN_LOCAL_LOG_LEVEL: 'warn', ...overrides };
}

async function waitHealthy(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const end = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`cfn-local exited ${child.exitCode} before it was healthy:\n${output()}`);
    const ok = await fetch(`${endpoint}/_cfn-local/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > end) throw new Error(`cfn-local not healthy after 20 s:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Spawns `CMD` (plus extra args) from the repository root and waits for the health endpoint at port. */
async function start(env: NodeJS.ProcessEnv, port: number, extraArgs: string[] = []): Promise<Running> {
  const [file, ...args] = IMAGE.cmd;
  const child = spawn(file, [...args, ...extraArgs], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const output = () => log;
  const endpoint = `http://127.0.0.1:${port}`;
  await waitHealthy(endpoint, child, output);
  const client = new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    endpoint,
    client,
    output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The Dockerfile's HEALTHCHECK command, run as Docker would run it, in the container's environment. */
const healthcheck = (env: NodeJS.ProcessEnv) =>
  run(IMAGE.healthcheck[0], IMAGE.healthcheck.slice(1), { cwd: ROOT, env });

async function createDemo(client: CloudFormationClient) {
  const { StackId } = await client.send(
    new CreateStackCommand({
      StackName: 'persisted',
      TemplateBody: TEMPLATE,
      Parameters: [{ ParameterKey: 'Env', ParameterValue: 'dev' }],
    }),
  );
  return waitForStack(client, StackId!);
}

const describeError = (client: CloudFormationClient, name: string) =>
  client.send(new DescribeStacksCommand({ StackName: name })).then(
    () => undefined,
    (err: Error) => `${err.name}: ${err.message}`,
  );

beforeAll(() => {
  if (!existsSync(join(ROOT, IMAGE.cmd.at(-1)!)))
    throw new Error(`${IMAGE.cmd.join(' ')}: not built; run \`npm run build\` (npm test does)`);
});

afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the Dockerfile', () => {
  it('declares port 4581, a /data volume, a non-root user and binds 0.0.0.0 with the db under /data', () => {
    expect(IMAGE.expose).toEqual(['4581']);
    expect(IMAGE.volumes).toEqual(['/data']);
    expect(IMAGE.user).toBeDefined();
    expect(IMAGE.user).not.toMatch(/^(root|0)(:|$)/);
    expect(IMAGE.env).toMatchObject({
      CFN_LOCAL_HOST: '0.0.0.0',
      CFN_LOCAL_PORT: '4581',
      CFN_LOCAL_DB: '/data/cfn.db',
    });
    expect(IMAGE.cmd).toEqual(['node', 'dist/cfn-local.cjs']);
  });
});

describe('the image start command, outside Docker', () => {
  it('serves, passes the HEALTHCHECK, stops with exit 0 on SIGTERM and keeps stacks in the db file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-start-'));
    const port = await freePort();
    const env = imageEnv({
      CFN_LOCAL_HOST: '127.0.0.1',
      CFN_LOCAL_PORT: String(port),
      CFN_LOCAL_DB: join(dir, 'cfn.db'),
    });

    const first = await start(env, port);
    expect(await healthcheck(env)).toMatchObject({ code: 0 });
    const created = await createDemo(first.client);
    expect(created.StackStatus).toBe('CREATE_COMPLETE');
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(dir, 'cfn.db'))).toBe(true);
    // With the server gone the same check must fail, or it proves nothing.
    expect((await healthcheck(env)).code).not.toBe(0);

    const second = await start(env, port);
    const { Stacks } = await second.client.send(new DescribeStacksCommand({ StackName: 'persisted' }));
    expect(Stacks![0]).toMatchObject({ StackId: created.StackId, StackStatus: 'CREATE_COMPLETE' });
    expect(await second.stop('SIGINT')).toBe(0);
  });

  it('--db :memory:, --port and --host win over CFN_LOCAL_* and nothing outlives the process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfn-local-flags-'));
    const [envPort, flagPort] = [await freePort(), await freePort()];
    const env = imageEnv({
      CFN_LOCAL_HOST: '0.0.0.0',
      CFN_LOCAL_PORT: String(envPort),
      CFN_LOCAL_DB: join(dir, 'cfn.db'),
    });
    const flags = ['--db', ':memory:', '--port', String(flagPort), '--host', '127.0.0.1'];

    const first = await start(env, flagPort, flags);
    expect(
      await fetch(`http://127.0.0.1:${envPort}/_cfn-local/health`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
    expect((await createDemo(first.client)).StackStatus).toBe('CREATE_COMPLETE');
    expect(await first.stop()).toBe(0);
    expect(existsSync(join(dir, 'cfn.db'))).toBe(false);

    const second = await start(env, flagPort, flags);
    expect(await describeError(second.client, 'persisted')).toBe(
      'ValidationError: Stack with id persisted does not exist',
    );
    expect(await second.stop()).toBe(0);
  });

  it.each([
    [['--port', 'abc'], {}, '--port must be a whole number from 0 to 65535 (got "abc")'],
    [[], { CFN_LOCAL_ACCOUNT: '42' }, 'CFN_LOCAL_ACCOUNT must be 12 digits (got "42")'],
    [
      ['--log-level', 'loud'],
      {},
      '--log-level must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
  ])('a bad value (%j %j) exits 1 with a message naming its option', async (flags, overrides, message) => {
    const [file, ...args] = IMAGE.cmd;
    const result = await run(file, [...args, ...flags], { cwd: ROOT, env: imageEnv(overrides) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`cfn-local: could not start: ${message}\n`);
  });
});
