// The container across its life: a restart on a named volume keeps the stacks; SIGTERM (docker stop) during an
// operation lets it finish and exits 0; a stop that kills it mid-operation is recovered on the next start; a
// bind-mounted data folder the container user cannot write fails with a clear message. Skips without an engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { buildCfnLocalImage } from '../../testing/container.mjs';
import { BUILD_ARGS, ROOT, TEST_IMAGE, clientFor, docker, findEngine, unique, waitForStatus } from './engine.js';

const { engine, why } = await findEngine();
if (!engine) console.warn(`[cfn-local container] skipping the lifecycle tests: ${why}`);
const VOLUME = unique('cfn-local-test-data');
const containers: string[] = [];

/** A chain of topics, each taking `delayMs` to create, so a stop lands mid-operation. */
const chain = (count: number, delayMs: number) =>
  JSON.stringify({
    Resources: Object.fromEntries(
      Array.from({ length: count }, (_, i) => [
        `T${i}`,
        {
          Type: 'AWS::SNS::Topic',
          ...(i ? { DependsOn: `T${i - 1}` } : {}),
          Metadata: { 'cfn-local': { DelayMs: delayMs } },
        },
      ]),
    ),
  });

/** `docker run -d` on the volume with a loopback port; resolves once the health check passes. */
async function run(): Promise<{ id: string; client: CloudFormationClient }> {
  const id = await docker(['run', '-d', '-p', '127.0.0.1::4581', '-v', `${VOLUME}:/data`, TEST_IMAGE]);
  containers.push(id);
  for (let i = 0; (await docker(['inspect', '--format', '{{.State.Health.Status}}', id])) !== 'healthy'; i++) {
    if (i > 300) throw new Error(`not healthy: ${await docker(['logs', id])}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const port = (await docker(['port', id, '4581'])).split('\n')[0].split(':').pop();
  return { id, client: clientFor(`http://127.0.0.1:${port}`) };
}

const exitCode = async (id: string) => Number(await docker(['inspect', '--format', '{{.State.ExitCode}}', id]));
const create = (client: CloudFormationClient, name: string, body: string) =>
  client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));

describe.skipIf(!engine)(`the container's life ${engine ? `(engine: ${engine})` : `— SKIPPED: ${why}`}`, () => {
  beforeAll(async () => {
    await buildCfnLocalImage(ROOT, TEST_IMAGE, BUILD_ARGS);
  }, 1_200_000);

  afterAll(async () => {
    for (const id of containers) await docker(['rm', '-f', id]).catch(() => undefined);
    await docker(['volume', 'rm', VOLUME]).catch(() => undefined);
  });

  it('SIGTERM mid-operation finishes it and exits 0; a restart on the volume keeps every stack', async () => {
    const first = await run();
    await create(first.client, 'kept', chain(1, 0));
    await waitForStatus(first.client, 'kept', /^CREATE_COMPLETE$/);
    await create(first.client, 'finished', chain(6, 400));
    await waitForStatus(first.client, 'finished', /^CREATE_IN_PROGRESS$/);
    await docker(['stop', '--time', '60', first.id]);
    expect(await exitCode(first.id)).toBe(0);

    const second = await run();
    expect((await waitForStatus(second.client, 'kept', /./)).StackStatus).toBe('CREATE_COMPLETE');
    expect((await waitForStatus(second.client, 'finished', /./)).StackStatus).toBe('CREATE_COMPLETE');
    await docker(['stop', second.id]);
  }, 300_000);

  it('a stop that kills it mid-operation leaves no stack in progress after the next start', async () => {
    const first = await run();
    await create(first.client, 'interrupted', chain(10, 2_000));
    await waitForStatus(first.client, 'interrupted', /^CREATE_IN_PROGRESS$/);
    // one second of grace, then SIGKILL: the operation is cut short
    await docker(['stop', '--time', '1', first.id]);
    expect(await exitCode(first.id)).toBe(137);

    const second = await run();
    const settled = await waitForStatus(second.client, 'interrupted', /_(COMPLETE|FAILED)$/);
    expect(settled.StackStatus).toMatch(/^(CREATE_COMPLETE|ROLLBACK_COMPLETE)$/);
    await docker(['stop', second.id]);
  }, 300_000);

  it('a bind-mounted data folder the container user cannot write fails at start with a clear message', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cfn-local-readonly-'));
    chmodSync(folder, 0o755);
    try {
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          'docker',
          ['run', '--rm', '-v', `${folder}:/data`, TEST_IMAGE],
          { timeout: 120_000 },
          (err, stdout, stderr) =>
            resolve({ code: err ? Number((err as { code?: number }).code) : 0, output: stdout + stderr }),
        );
      });
      expect(result.code).toBe(1);
      expect(result.output).toContain(
        'cfn-local: could not start: cannot write the database /data/cfn.db: /data is not writable by uid 1000 (EACCES)',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);
});
