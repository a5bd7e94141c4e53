// What the container tests share: finding a Docker engine (they skip, saying why, where none answers), the image
// they build under a tag of their own, and small docker/SDK helpers. Imports nothing of the server: a machine
// without generated/ can still skip.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** A repository name of the tests' own, so a user's `cfn-local:*` images are never overwritten. */
export const TEST_IMAGE = `cfn-local-test:${process.env.CFN_LOCAL_TEST_TAG ?? 'latest'}`;
/** PyPI cannot be reached from these machines: the image is built without the SAM translator (docs/container.md). */
export const BUILD_ARGS = { SAM_TRANSLATOR: 'false' };

interface Target {
  socketPath?: string;
  host?: string;
  port?: number;
  label: string;
}

/** Where an engine could listen: DOCKER_HOST when set, else the usual sockets (rootful, Docker Desktop, rootless). */
function candidates(): Target[] {
  const dockerHost = process.env.DOCKER_HOST;
  if (dockerHost?.startsWith('unix://')) return [{ socketPath: dockerHost.slice(7), label: dockerHost }];
  if (dockerHost?.startsWith('tcp://')) {
    const url = new URL(dockerHost.replace('tcp://', 'http://'));
    return [{ host: url.hostname, port: Number(url.port || 2375), label: dockerHost }];
  }
  const runtime = process.env.XDG_RUNTIME_DIR ?? `/run/user/${process.getuid?.() ?? 0}`;
  return ['/var/run/docker.sock', `${process.env.HOME ?? ''}/.docker/run/docker.sock`, `${runtime}/docker.sock`]
    .filter((path) => existsSync(path))
    .map((socketPath) => ({ socketPath, label: socketPath }));
}

function ping(target: Target): Promise<boolean> {
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

/** The engine's label, or why there is none (the skip message says exactly what was tried). */
export async function findEngine(): Promise<{ engine?: string; why: string }> {
  const targets = candidates();
  for (const target of targets) if (await ping(target)) return { engine: target.label, why: '' };
  const tried = process.env.DOCKER_HOST
    ? `DOCKER_HOST=${process.env.DOCKER_HOST} does not answer`
    : targets.length
      ? `no engine answers on ${targets.map((t) => t.label).join(', ')}`
      : 'DOCKER_HOST is unset and no docker.sock exists';
  return { why: `${tried} (scripts/container-engine.sh sets one up on Debian)` };
}

/** `docker …`: resolves with stdout, rejects with stderr. */
export function docker(args: string[], timeout = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('docker', args, { timeout, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`docker ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout.trim()),
    );
  });
}

export const clientFor = (endpoint: string) =>
  new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });

/** Polls DescribeStacks until the stack's status matches. */
export async function waitForStatus(
  client: CloudFormationClient,
  stack: string,
  pattern: RegExp,
  timeoutMs = 60_000,
): Promise<Stack> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stack }));
    if (pattern.test(Stacks![0].StackStatus!)) return Stacks![0];
    if (Date.now() > end) throw new Error(`${stack} still ${Stacks![0].StackStatus}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}`;
