// Builds the image from the Dockerfile with testcontainers, runs it, and calls DescribeStacks through the SDK.
// Skips, saying why, when no Docker engine answers (the usual case on these machines).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { CloudFormationClient, CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { fileURLToPath } from 'node:url';
import { waitForStack } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where a Docker engine could listen: DOCKER_HOST, else the usual sockets (rootful, Docker Desktop, rootless). */
function candidates(): { socketPath?: string; host?: string; port?: number; label: string }[] {
  const dockerHost = process.env.DOCKER_HOST;
  if (dockerHost?.startsWith('unix://')) return [{ socketPath: dockerHost.slice(7), label: dockerHost }];
  if (dockerHost?.startsWith('tcp://')) {
    const url = new URL(dockerHost.replace('tcp://', 'http://'));
    return [{ host: url.hostname, port: Number(url.port || 2375), label: dockerHost }];
  }
  const home = process.env.HOME ?? '';
  const runtime = process.env.XDG_RUNTIME_DIR ?? `/run/user/${process.getuid?.() ?? 0}`;
  return ['/var/run/docker.sock', `${home}/.docker/run/docker.sock`, `${runtime}/docker.sock`]
    .filter((path) => existsSync(path))
    .map((socketPath) => ({ socketPath, label: socketPath }));
}

/** GET /_ping with a short timeout: true only when an engine answers OK. */
function ping(target: { socketPath?: string; host?: string; port?: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ ...target, path: '/_ping', method: 'GET', timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function findEngine(): Promise<string | undefined> {
  for (const target of candidates()) if (await ping(target)) return target.label;
  return undefined;
}

const engine = await findEngine();
if (!engine) console.warn('[cfn-local container] skipping the image test: no Docker engine answers (DOCKER_HOST unset and no docker.sock responds)');

describe.skipIf(!engine)(`the container image (${engine ?? 'SKIPPED: no Docker engine answers'})`, () => {
  let container: { getHost(): string; getMappedPort(port: number): number; stop(): Promise<unknown> } | undefined;
  let client: CloudFormationClient;

  beforeAll(async () => {
    // Imported only when an engine exists: loading testcontainers costs time and needs its runtime (see docs/container.md).
    const { GenericContainer, Wait } = await import('testcontainers').catch((err: Error) => {
      // testcontainers 12 pulls undici 8, which needs Node >= 22.19; on Node 20 it throws while loading.
      throw new Error(`testcontainers failed to load on Node ${process.versions.node}: ${err.message}`);
    });
    const image = await GenericContainer.fromDockerfile(ROOT).build('cfn-local:test', { deleteOnExit: true });
    container = await image.withExposedPorts(4581).withWaitStrategy(Wait.forHealthCheck()).withStartupTimeout(120_000).start();
    client = new CloudFormationClient({
      endpoint: `http://${container.getHost()}:${container.getMappedPort(4581)}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  }, 600_000);

  afterAll(async () => {
    await container?.stop();
  });

  it('answers DescribeStacks with an empty list on a fresh volume', async () => {
    const { Stacks } = await client.send(new DescribeStacksCommand({}));
    expect(Stacks ?? []).toEqual([]);
  });

  it('CreateStack inside the container reaches CREATE_COMPLETE', async () => {
    const { StackId } = await client.send(new CreateStackCommand({
      StackName: 'in-container',
      TemplateBody: JSON.stringify({ Resources: { Topic: { Type: 'AWS::SNS::Topic' } } }),
    }));
    expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  });
});
