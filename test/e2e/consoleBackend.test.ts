// The web console with a backend (a moto_server this file starts), in a real browser: the simulated account marks
// the resources the backend holds, and shows a queue's approximate message count and a table's item count as the
// backend reports them, read again by a button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { clientConfig, startMoto, type TestMoto } from '../helpers/moto.js';
import { join } from 'node:path';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** CFN_LOCAL_SCREENSHOTS=docs/console keeps this page's screenshot for the docs, as test/e2e/console.test.ts does. */
const SHOTS = process.env.CFN_LOCAL_SCREENSHOTS;

const APP = JSON.stringify({
  Resources: {
    Queue: { Type: 'AWS::SQS::Queue' },
    Table: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        BillingMode: 'PAY_PER_REQUEST',
      },
    },
    Note: { Type: 'AWS::SSM::Parameter', Properties: { Type: 'String', Value: 'simulated' } },
  },
  Outputs: { QueueUrl: { Value: { Ref: 'Queue' } }, Table: { Value: { Ref: 'Table' } } },
});

let moto: TestMoto | undefined;
let server: TestServer;
let browser: Browser | undefined;
let page: Page;

// CI installs chromium (.ci/run); a developer without it skips these, and CI, which has it, cannot.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the web console with a backend', () => {
  beforeAll(async () => {
    moto = await startMoto();
    server = await startServer({ backend: moto.url });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
    page.setDefaultTimeout(10_000);
    // moto and chromium both start here: seconds each, many more on a loaded machine
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await moto?.close();
    await server.close();
  });

  it("shows a backend queue's approximate message count and a table's item count", { timeout: 90_000 }, async () => {
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'store', TemplateBody: APP }));
    // the first calls into moto load the SDK's clients: on a loaded machine that is many seconds
    const stack = await waitForStack(server.client, StackId!, 60_000);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const out = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey!, o.OutputValue!]));
    const sqs = new SQSClient(clientConfig(server.endpoint));
    for (const body of ['one', 'two'])
      await sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: body }));
    const ddb = new DynamoDBClient(clientConfig(server.endpoint));
    for (const id of ['a', 'b', 'c'])
      await ddb.send(new PutItemCommand({ TableName: out.Table, Item: { id: { S: id }, note: { S: 'x' } } }));

    await page.goto(`${server.endpoint}/_cfn-local/console/#/account`);
    const queue = page.locator('.world-item', { hasText: 'store / Queue' });
    const table = page.locator('.world-item', { hasText: 'store / Table' });
    const note = page.locator('.world-item', { hasText: 'store / Note' });
    // the counts are asked of the backend once the page shows the resource
    await queue
      .getByRole('status')
      .filter({ hasText: /^2 messages available, 0 in flight, 0 delayed$/ })
      .waitFor();
    await table
      .getByRole('status')
      .filter({ hasText: /^3 items$/ })
      .waitFor();
    expect(await queue.getByText('in the backend', { exact: true }).count()).toBe(1);
    // a simulated resource is neither marked nor counted
    await note.waitFor();
    expect(await note.getByText('in the backend', { exact: true }).count()).toBe(0);
    expect(await note.locator('.counts').count()).toBe(0);

    // the counts are the backend's now: a message sent after the page loaded shows once they are read again
    await sqs.send(new SendMessageCommand({ QueueUrl: out.QueueUrl, MessageBody: 'three' }));
    await queue.getByRole('button', { name: 'Refresh counts' }).click();
    await queue
      .getByRole('status')
      .filter({ hasText: /^3 messages available, 0 in flight, 0 delayed$/ })
      .waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'account-backend.png') });
  });
});
