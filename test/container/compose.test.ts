// docker-compose.yml as users run it: up, healthy (the image's own health check), answering on loopback, down with
// its volume. Debian 12 ships Compose v1 (`docker-compose`); Compose v2 (`docker compose`) is used when that is what
// the machine has. Skips without an engine or without Compose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { buildCfnLocalImage } from '../../testing/container.mjs';
import { BUILD_ARGS, ROOT, TEST_IMAGE, clientFor, docker, findEngine, unique } from './engine.js';

const PROJECT = unique('cfn-local-compose');

function compose(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const [file, prefix] = COMPOSE!;
  return new Promise((resolve) => {
    execFile(
      file,
      [...prefix, '-p', PROJECT, ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 300_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

async function findCompose(): Promise<[string, string[]] | undefined> {
  const works = (file: string, args: string[]) =>
    new Promise<boolean>((resolve) => execFile(file, args, (err) => resolve(!err)));
  if (await works('docker-compose', ['version'])) return ['docker-compose', []];
  if (await works('docker', ['compose', 'version'])) return ['docker', ['compose']];
  return undefined;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const { engine, why } = await findEngine();
const COMPOSE = engine ? await findCompose() : undefined;
const noCompose = engine ? 'neither docker-compose nor docker compose works' : why;
if (!COMPOSE) console.warn(`[cfn-local container] skipping the compose test: ${noCompose}`);

describe.skipIf(!COMPOSE)(`docker-compose.yml${COMPOSE ? '' : ` — SKIPPED: ${noCompose}`}`, () => {
  let env: Record<string, string>;

  beforeAll(async () => {
    await buildCfnLocalImage(ROOT, TEST_IMAGE, BUILD_ARGS);
    env = {
      CFN_LOCAL_IMAGE: TEST_IMAGE,
      CFN_LOCAL_PUBLISH: `127.0.0.1:${await freePort()}`,
      CFN_LOCAL_CONTROL_TOKEN: 'compose-secret',
    };
  }, 1_200_000);

  afterAll(async () => {
    await compose(['down', '-v'], env);
  });

  it('comes up healthy on loopback with the named volume, and goes down with it', async () => {
    const up = await compose(['up', '-d', '--no-build'], env);
    expect(up.code, up.output).toBe(0);
    const id = (await compose(['ps', '-q'], env)).output.trim();
    for (let i = 0; (await docker(['inspect', '--format', '{{.State.Health.Status}}', id])) !== 'healthy'; i++) {
      if (i > 300) throw new Error('not healthy');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await docker(['port', id, '4581'])).toBe(env.CFN_LOCAL_PUBLISH);
    expect(await docker(['volume', 'ls', '--format', '{{.Name}}'])).toContain(`${PROJECT}_cfn-local-data`);
    const { Stacks } = await clientFor(`http://${env.CFN_LOCAL_PUBLISH}`).send(new DescribeStacksCommand({}));
    expect(Stacks ?? []).toEqual([]);
    // The compose file passes CFN_LOCAL_CONTROL_TOKEN on: the control API wants it, the health check does not.
    const world = `http://${env.CFN_LOCAL_PUBLISH}/_cfn-local/world`;
    expect((await fetch(world)).status).toBe(401);
    expect((await fetch(world, { headers: { authorization: 'Bearer compose-secret' } })).status).toBe(200);

    const down = await compose(['down', '-v'], env);
    expect(down.code, down.output).toBe(0);
    expect(await docker(['volume', 'ls', '--format', '{{.Name}}'])).not.toContain(`${PROJECT}_cfn-local-data`);
  }, 300_000);
});

// The moto profile cannot pull moto's image here, so its shape is checked with `config`; what the backend does is
// tested against moto_server itself (test/api/backend.test.ts).
const CONFIG_COMPOSE = await findCompose();
describe.skipIf(!CONFIG_COMPOSE && !process.env.CI)('docker-compose.yml, moto profile', () => {
  it('runs moto beside a cfn-local configured with --backend http://moto:5000', async () => {
    const [file, prefix] = CONFIG_COMPOSE!;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(file, [...prefix, '--profile', 'moto', 'config'], { cwd: ROOT }, (err, stdout, stderr) =>
        err ? reject(new Error(stderr || err.message)) : resolve(stdout),
      ),
    );
    expect(output).toMatch(/\n {2}moto:\n/);
    expect(output).toMatch(/CFN_LOCAL_BACKEND: http:\/\/moto:5000/);
    expect(output).toMatch(/MOTO_ACCOUNT_ID: ['"]?000000000000/);
  });
});
