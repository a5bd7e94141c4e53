// The SAM translator's worker process: a crash or a hang fails the call cleanly and the next SAM template gets a
// new worker; with no Python that has the translator, the call is refused naming the fix.
import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';
import { samGate } from '../helpers/sam.js';
import { findSamPython } from '../../template/transforms/samPython.js';
import { changeSet } from './changeSetsHelpers.js';

const TEMPLATE = JSON.stringify({
  Transform: 'AWS::Serverless-2016-10-31',
  Resources: { Items: { Type: 'AWS::Serverless::SimpleTable' } },
});
const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function serverWith(options: Parameters<typeof startServer>[0]) {
  const server = await startServer(options);
  servers.push(server);
  return server;
}

/** A stand-in interpreter whose first worker misbehaves (`misbehave` is shell); every other start is the real Python. */
function flakyPython(real: string, misbehave: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-local-sam-'));
  const path = join(dir, 'python3');
  writeFileSync(
    path,
    `#!/bin/sh\nif [ "$1" = "-u" ] && [ ! -e "${dir}/once" ]; then touch "${dir}/once"; ${misbehave}; fi\nexec "${real}" "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe('SAM without the translator', () => {
  it('CreateStack is refused with a ValidationError naming pip install aws-sam-translator', async () => {
    const server = await serverWith({ samPython: join(tmpdir(), 'no-such-python3') });
    const err = await awsErrorOf(
      server.client.send(
        new CreateStackCommand({
          StackName: 'no-sam',
          TemplateBody: TEMPLATE,
          Capabilities: ['CAPABILITY_AUTO_EXPAND'],
        }),
      ),
    );
    expect(err.code).toBe('ValidationError');
    expect(err.message).toMatch(
      /^Transform AWS::Serverless-2016-10-31 failed with: .*cannot import samtranslator; .*`pip install aws-sam-translator`/,
    );
    // nothing was created
    const missing = await awsErrorOf(server.client.send(new DescribeStacksCommand({ StackName: 'no-sam' })));
    expect(missing.message).toBe('Stack with id no-sam does not exist');
  });
});

const gate = await samGate('SAM translator worker failures');

describe.skipIf(gate.skip)(gate.title, () => {
  it('a worker that crashes fails the change set cleanly; the next template gets a new worker', async () => {
    const python = flakyPython((await findSamPython(process.env.CFN_LOCAL_SAM_PYTHON))!, 'exit 3');
    const server = await serverWith({ samPython: python });
    const first = await changeSet(server.client, 'crash', TEMPLATE, { ChangeSetType: 'CREATE' });
    expect(first.described.Status).toBe('FAILED');
    expect(first.described.StatusReason).toMatch(
      /^Transform AWS::Serverless-2016-10-31 failed with: Internal transform failure\. \(cfn-local: the SAM translator worker (exited|closed its input)/,
    );
    const second = await changeSet(server.client, 'crash', TEMPLATE, { ChangeSetType: 'CREATE' });
    expect(second.described.Status).toBe('CREATE_COMPLETE');
    expect(second.described.Changes!.map((c) => c.ResourceChange!.ResourceType)).toEqual(['AWS::DynamoDB::Table']);
  }, 120_000);

  it('a worker that hangs is killed after the timeout and the call fails cleanly; the next template gets a new worker', async () => {
    const python = flakyPython(
      (await findSamPython(process.env.CFN_LOCAL_SAM_PYTHON))!,
      `echo '{"ready": true}'; exec sleep 600`,
    );
    const server = await serverWith({ samPython: python, samTimeoutMs: 1_000 });
    const first = await changeSet(server.client, 'hang', TEMPLATE, { ChangeSetType: 'CREATE' });
    expect(first.described.StatusReason).toMatch(
      /^Transform AWS::Serverless-2016-10-31 failed with: Internal transform failure\. \(cfn-local: the SAM translator worker did not answer in time/,
    );
    const second = await changeSet(server.client, 'hang', TEMPLATE, { ChangeSetType: 'CREATE' });
    expect(second.described.Status).toBe('CREATE_COMPLETE');
  }, 120_000);
});
