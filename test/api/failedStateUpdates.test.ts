// Updating a stack kept in CREATE_FAILED or UPDATE_FAILED (rollback disabled): AWS's refusals when the update does
// not disable rollback itself, or when the stack was created with OnFailure DO_NOTHING, and the CreateStack refusal
// of OnFailure together with DisableRollback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const template = (fail?: 'Create' | 'Update', value = 'a') => `Resources:
  P:
    Type: AWS::SSM::Parameter
${fail ? `    Metadata: { cfn-local: { Fail: [${fail}] } }\n` : ''}    Properties: { Type: String, Value: ${value} }
`;

async function create(name: string, body: string, extra: Record<string, unknown>) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return waitForStack(server.client, StackId!);
}

const update = (name: string, body: string, extra: Record<string, unknown> = {}) =>
  server.client.send(new UpdateStackCommand({ StackName: name, TemplateBody: body, ...extra }));

describe('UpdateStack of a stack kept in a failed state', () => {
  it('CREATE_FAILED: refused unless the update disables rollback; with it, the update runs', async () => {
    expect((await create('kept-create', template('Create'), { DisableRollback: true })).StackStatus).toBe(
      'CREATE_FAILED',
    );
    expect(await awsErrorOf(update('kept-create', template()))).toEqual({
      code: 'ValidationError',
      status: 400,
      message:
        'This stack is currently in a non-terminal [CREATE_FAILED] state. To update the stack from this state, please use the disable-rollback parameter with update-stack API. To rollback to the last known good state, use the rollback-stack API',
    });
    const { StackId } = await update('kept-create', template(), { DisableRollback: true });
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('UPDATE_FAILED: the same refusal names UPDATE_FAILED', async () => {
    await create('kept-update', template(), {});
    const { StackId } = await update('kept-update', template('Update', 'b'), { DisableRollback: true });
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_FAILED');
    expect((await awsErrorOf(update('kept-update', template(undefined, 'c')))).message).toBe(
      'This stack is currently in a non-terminal [UPDATE_FAILED] state. To update the stack from this state, please use the disable-rollback parameter with update-stack API. To rollback to the last known good state, use the rollback-stack API',
    );
  });

  it('created with OnFailure DO_NOTHING: refused even with DisableRollback, naming the creation option', async () => {
    expect((await create('kept-do-nothing', template('Create'), { OnFailure: 'DO_NOTHING' })).StackStatus).toBe(
      'CREATE_FAILED',
    );
    expect((await awsErrorOf(update('kept-do-nothing', template(), { DisableRollback: true }))).message).toBe(
      'This stack cannot be updated from [CREATE_FAILED] state because it contains [on-failure: DO_NOTHING]. Please use disable-rollback option instead during stack creation.',
    );
  });
});

describe('CreateStack', () => {
  it('refuses OnFailure together with DisableRollback, even DisableRollback false', async () => {
    const send = server.client.send(
      new CreateStackCommand({
        StackName: 'both',
        TemplateBody: template(),
        OnFailure: 'DELETE',
        DisableRollback: false,
      }),
    );
    expect(await awsErrorOf(send)).toEqual({
      code: 'ValidationError',
      status: 400,
      message: 'Either DisableRollback or OnFailure can be specified, not both.',
    });
  });
});
