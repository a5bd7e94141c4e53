// `backend: 'moto'`: cfn-local runs moto_server itself (started with the server, waited for on first use,
// restarted after a crash, stopped on close), a missing moto_server is a clear error, and without a backend a
// request for an unserved JSON service is answered in JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateQueueCommand, ListQueuesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../../server/app.js';
import { MOTO_MISSING, type MotoBackend } from '../../server/backend/moto.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** moto's own process: the one child of the shell that guards it (server/backend/moto.ts). */
function motoUnder(guard: number): number {
  return Number(
    execFileSync('pgrep', ['-P', String(guard)])
      .toString()
      .trim()
      .split('\n')[0],
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const config = (endpoint: string) => ({
  endpoint,
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  maxAttempts: 1,
});

describe("backend: 'moto'", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ backend: 'moto' });
  });
  afterAll(() => server.close());

  it('starts moto_server as a child: the first request waits for it and is forwarded', async () => {
    const sqs = new SQSClient(config(server.endpoint));
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: 'through-moto' }));
    expect(QueueUrl).toMatch(/\/000000000000\/through-moto$/);
  });

  it('restarts moto after a crash (its state is gone, as moto keeps it in memory)', async () => {
    const moto = server.app.backend as MotoBackend;
    const before = moto.pid!;
    process.kill(motoUnder(before), 'SIGKILL');
    const sqs = new SQSClient(config(server.endpoint));
    let queues: string[] | undefined = ['x'];
    for (let i = 0; i < 200 && (moto.pid === before || queues === undefined || queues.length > 0); i++) {
      await new Promise((r) => setTimeout(r, 50));
      queues = await sqs.send(new ListQueuesCommand({})).then(
        (r) => r.QueueUrls ?? [],
        () => undefined,
      );
    }
    expect(moto.pid).not.toBe(before);
    expect(queues).toEqual([]);
  });

  it('stops moto with the server', async () => {
    const own = await startServer({ backend: 'moto' });
    const moto = own.app.backend as MotoBackend;
    await moto.url();
    const pid = moto.pid!;
    const python = motoUnder(pid);
    await own.close();
    expect(() => process.kill(pid, 0)).toThrow();
    expect(() => process.kill(python, 0)).toThrow();
  });

  it('does not outlive a cfn-local that is SIGKILLed', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../helpers/motoChild.ts', import.meta.url))],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const guard = await new Promise<number>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
    );
    const python = motoUnder(guard);
    child.kill('SIGKILL');
    for (let i = 0; i < 200 && alive(python); i++) await new Promise((r) => setTimeout(r, 25));
    expect(alive(python)).toBe(false);
  });
});

describe('a missing moto_server', () => {
  it('is a clear error with the install command', async () => {
    const app = buildApp({ db: ':memory:', backend: 'moto', motoCommand: 'no-such-moto-server' });
    await expect(app.backendStarted).rejects.toThrow(MOTO_MISSING);
    expect(MOTO_MISSING).toContain("pip install 'moto[server]'");
    await app.close();
  });
});

describe('without a backend', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it("answers a JSON service's request with UnknownService in JSON, which its client reads", async () => {
    const err = await new DynamoDBClient(config(server.endpoint))
      .send(new ListTablesCommand({}))
      .catch((e: Error) => e);
    expect(err).toMatchObject({ name: 'UnknownService', $metadata: { httpStatusCode: 400 } });
    expect((err as Error).message).toContain('cfn-local does not serve the dynamodb API');
    const sqs = await new SQSClient(config(server.endpoint)).send(new ListQueuesCommand({})).catch((e: Error) => e);
    expect(sqs).toMatchObject({ name: 'UnknownService' });
  });
});
