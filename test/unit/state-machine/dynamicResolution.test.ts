// A resource's dynamic references are resolved once per action: the check before the action, the provider's create
// request and its stabilize step share one resolution. Counted through the world store's reads of the parameter
// (or secret); an SSM reference is also checked once when the call is validated, as AWS refuses a missing one.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { CreateStackCommand, UpdateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../../helpers/server.js';

const NAME = '/counted/display-name';
const template = (description: string) => `
Resources:
  Topic:
    Type: AWS::SNS::Topic
    Properties:
      DisplayName: '{{resolve:ssm:${NAME}}}'
      Tags:
        - Key: about
          Value: ${description}
`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  const ssm = new SSMClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await ssm.send(new PutParameterCommand({ Name: NAME, Value: 'counted', Type: 'String' }));
});
afterAll(() => server.close());

/** The world store's reads of one parameter (or secret) while `act` runs. */
async function readsDuring(act: () => Promise<void>, type = 'AWS::SSM::Parameter', name = NAME): Promise<number> {
  const { world } = server.app.store;
  const get = vi.spyOn(world, 'get');
  try {
    await act();
    return get.mock.calls.filter(([, , t, id]) => t === type && id === name).length;
  } finally {
    get.mockRestore();
  }
}

it('a create reads the parameter twice: once when the call is validated, once for the resource action', async () => {
  let stackId = '';
  const reads = await readsDuring(async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'counted', TemplateBody: template('first') }),
    );
    stackId = StackId!;
    expect((await waitForStack(server.client, stackId)).StackStatus).toBe('CREATE_COMPLETE');
  });
  expect(reads).toBe(2);
});

it('an update in place reads it twice as well: the call, then the one update action', async () => {
  const reads = await readsDuring(async () => {
    const { StackId } = await server.client.send(
      new UpdateStackCommand({ StackName: 'counted', TemplateBody: template('second') }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  });
  expect(reads).toBe(2);
});

it('a secret is read once for the resource that references it', async () => {
  const secret = `
Resources:
  Secret:
    Type: AWS::SecretsManager::Secret
    Properties:
      Name: counted-secret
      SecretString: '{"user":"admin"}'
`;
  const made = await server.client.send(new CreateStackCommand({ StackName: 'secret', TemplateBody: secret }));
  expect((await waitForStack(server.client, made.StackId!)).StackStatus).toBe('CREATE_COMPLETE');
  const reads = await readsDuring(
    async () => {
      const { StackId } = await server.client.send(
        new CreateStackCommand({
          StackName: 'reads-secret',
          TemplateBody: template('secret').replace(
            `{{resolve:ssm:${NAME}}}`,
            '{{resolve:secretsmanager:counted-secret:SecretString:user}}',
          ),
        }),
      );
      expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    },
    'AWS::SecretsManager::Secret',
    'counted-secret',
  );
  expect(reads).toBe(1);
});
