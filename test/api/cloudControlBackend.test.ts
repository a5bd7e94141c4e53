// Cloud Control with --backend: a queue created through CreateResource is made in the moto_server this file starts
// (as a stack's would be), GetResource reads it from there, and DeleteResource deletes it there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CloudControlClient,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  type ProgressEvent,
} from '@aws-sdk/client-cloudcontrol';
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { startServer, type TestServer } from '../helpers/server.js';
import { clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';

let moto: TestMoto;
let server: TestServer;
let cc: CloudControlClient;
beforeAll(async () => {
  moto = await startMoto();
  server = await startServer({ backend: moto.url });
  cc = new CloudControlClient(clientConfig(server.endpoint));
});
afterAll(async () => {
  await server.close();
  await moto.close();
});

async function settled(event: ProgressEvent): Promise<ProgressEvent> {
  for (let i = 0; i < 400; i++) {
    const { ProgressEvent } = await cc.send(new GetResourceRequestStatusCommand({ RequestToken: event.RequestToken }));
    if (ProgressEvent!.OperationStatus !== 'IN_PROGRESS') return ProgressEvent!;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`request ${event.RequestToken} never settled`);
}

it('CreateResource, GetResource and DeleteResource of a queue go to the backend', async () => {
  const { ProgressEvent } = await cc.send(
    new CreateResourceCommand({
      TypeName: 'AWS::SQS::Queue',
      DesiredState: JSON.stringify({ QueueName: 'cc-backend' }),
    }),
  );
  const done = await settled(ProgressEvent!);
  expect(done.OperationStatus).toBe('SUCCESS');
  const direct = new SQSClient(clientConfig(moto.url));
  const { QueueUrl } = await direct.send(new GetQueueUrlCommand({ QueueName: 'cc-backend' }));
  expect(QueueUrl).toContain('cc-backend');
  const got = await cc.send(new GetResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: done.Identifier }));
  expect(JSON.parse(got.ResourceDescription!.Properties!)).toMatchObject({ QueueName: 'cc-backend' });
  const { ProgressEvent: del } = await cc.send(
    new DeleteResourceCommand({ TypeName: 'AWS::SQS::Queue', Identifier: done.Identifier }),
  );
  expect((await settled(del!)).OperationStatus).toBe('SUCCESS');
  await expect(direct.send(new GetQueueUrlCommand({ QueueName: 'cc-backend' }))).rejects.toThrow();
});
