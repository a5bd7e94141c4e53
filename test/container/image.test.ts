// The image as users run it: built from the Dockerfile and started with testcontainers through the helper users
// import (testing/container.mjs, as docs/container.md shows it), healthy, non-root, small, and driven by the AWS CLI
// through a whole stack life (create, describe, events, update, delete). Skips, saying why, without an engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildCfnLocalImage, startCfnLocal, type CfnLocal } from '../../testing/container.mjs';
import { awsCloudFormation, json } from '../e2e/clients.js';
import { BUILD_ARGS, ROOT, TEST_IMAGE, docker, findEngine } from './engine.js';

const { engine, why } = await findEngine();
if (!engine) console.warn(`[cfn-local container] skipping the image tests: ${why}`);
const FIXTURES = join(ROOT, 'test/e2e/fixtures');

describe.skipIf(!engine)(`the image ${engine ? `(engine: ${engine})` : `— SKIPPED: ${why}`}`, () => {
  let cfn: CfnLocal | undefined;
  const started = () => cfn!;
  const aws = (...args: string[]) => awsCloudFormation(started().endpoint, args, FIXTURES);

  beforeAll(async () => {
    await buildCfnLocalImage(ROOT, TEST_IMAGE, BUILD_ARGS);
    cfn = await startCfnLocal({ image: TEST_IMAGE });
  }, 1_200_000);

  afterAll(async () => {
    await cfn?.stop();
  });

  it('is healthy, runs as uid 1000 and holds no dev dependency', async () => {
    expect(
      await docker(['inspect', '--format', '{{.State.Health.Status}} {{.Config.User}}', started().container.getId()]),
    ).toBe('healthy node');
    const { output } = await started().container.exec(['sh', '-c', 'id -u; ls /app/node_modules']);
    expect(output.trim().split('\n')).toEqual(['1000', 'better-sqlite3', 'yaml']);
    const bytes = Number(await docker(['image', 'inspect', '--format', '{{.Size}}', TEST_IMAGE]));
    console.info(`[cfn-local container] ${TEST_IMAGE}: ${(bytes / 1e6).toFixed(0)} MB`);
  });

  it('takes a stack through create, describe, events, update and delete from the AWS CLI', async () => {
    const created = json(
      await aws(
        'create-stack',
        '--stack-name',
        'demo',
        '--template-body',
        'file://app.yaml',
        '--parameters',
        'ParameterKey=Env,ParameterValue=dev',
      ),
    );
    expect(created.StackId).toMatch(/^arn:aws:cloudformation:us-east-1:000000000000:stack\/demo\//);
    expect(await aws('wait', 'stack-create-complete', '--stack-name', 'demo')).toMatchObject({ code: 0 });
    expect(json(await aws('describe-stacks', '--stack-name', 'demo')).Stacks[0].StackStatus).toBe('CREATE_COMPLETE');
    const events = json(await aws('describe-stack-events', '--stack-name', 'demo')).StackEvents;
    expect(`${events[0].LogicalResourceId} ${events[0].ResourceStatus}`).toBe('demo CREATE_COMPLETE');

    json(
      await aws(
        'update-stack',
        '--stack-name',
        'demo',
        '--template-body',
        'file://app.yaml',
        '--parameters',
        'ParameterKey=Env,ParameterValue=prod',
      ),
    );
    expect(await aws('wait', 'stack-update-complete', '--stack-name', 'demo')).toMatchObject({ code: 0 });

    expect(await aws('delete-stack', '--stack-name', 'demo')).toMatchObject({ code: 0 });
    expect(await aws('wait', 'stack-delete-complete', '--stack-name', 'demo')).toMatchObject({ code: 0 });
    const gone = await aws('describe-stacks', '--stack-name', 'demo');
    expect(gone.stderr).toContain('Stack with id demo does not exist');
  }, 300_000);

  it('logs one JSON line per call (no terminal in a container by default)', async () => {
    const logs = await docker(['logs', started().container.getId()]);
    const calls = logs
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l))
      .filter((l) => l.call);
    expect(calls.map((l) => `${l.call.action} ${l.call.status}`)).toEqual(
      expect.arrayContaining(['CreateStack 200', 'DeleteStack 200']),
    );
  });
});
