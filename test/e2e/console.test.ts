// The web console in a real browser (Debian's chromium driven by playwright-core): a failing deploy's rollback
// arrives live, the graph shows each resource's status, a fault button makes the next deploy fail, a change set
// reads as a diff with its data-loss mark. CFN_LOCAL_SCREENSHOTS=docs/console keeps the screenshots for the docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  CreateStackInstancesCommand,
  CreateStackSetCommand,
  DescribeStacksCommand,
  ListStacksCommand,
  UpdateStackCommand,
  waitUntilChangeSetCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { s3Client } from '../helpers/s3.js';
import { param, putTemplate } from '../api/nestedHelpers.js';
import { A, ADMIN, B, clientFor, waitForOperation } from '../api/stackSetsHelpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = process.env.CFN_LOCAL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'cfn-console-'));

const template = (opts: { fail?: boolean; value?: string; bucketName?: string } = {}) => `
Description: The console's end-to-end stack
Resources:
  Data:
    Type: AWS::S3::Bucket${opts.bucketName ? `\n    Properties: { BucketName: ${opts.bucketName} }` : ''}
  Topic:
    Type: AWS::SNS::Topic
  Config:
    Type: AWS::SSM::Parameter${opts.fail ? '\n    Metadata: { cfn-local: { Fail: Create, DelayMs: 1500 } }' : ''}
    Properties:
      Type: String
      Value: !Sub '\${Data.Arn} \${Topic} ${opts.value ?? 'v1'}'
  Alarm:
    Type: AWS::SSM::Parameter
    DependsOn: Config
    Properties: { Type: String, Value: !GetAtt Topic.TopicName }
Outputs:
  Bucket:
    Value: !Ref Data
`;

const FUNCTION = `Resources:
  Echo:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Role: arn:aws:iam::000000000000:role/exec
      Code: { ZipFile: "exports.handler = async (event) => ({ echo: event })" }
`;

/** A stack set template that fails in eu-west-1 only. */
const SET_TEMPLATE = `Conditions:
  InEuWest1: !Equals [!Ref AWS::Region, eu-west-1]
Resources:
  Fine:
    Type: AWS::SSM::Parameter
    Properties: { Type: String, Value: fine }
  Bad:
    Type: AWS::SSM::Parameter
    Condition: InEuWest1
    Metadata: { cfn-local: { Fail: [Create] } }
    Properties: { Type: String, Value: bad }
`;

let server: TestServer;
let browser: Browser;
let page: Page;

// CI installs chromium (.ci/run); a developer without it skips these, and CI, which has it, cannot.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the web console in a browser', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
    // a step that cannot happen fails in 10 s with the locator it waited for, not at the test's timeout
    page.setDefaultTimeout(10_000);
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
  const openStack = async (name: string) => {
    await page.goto(`${server.endpoint}/_cfn-local/console/`);
    await page.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name: new RegExp(`^${name}`) }).waitFor();
  };

  it('opens from / and shows a failing deploy roll back live, the root cause marked', async () => {
    await page.goto(`${server.endpoint}/`);
    expect(page.url()).toBe(`${server.endpoint}/_cfn-local/console/`);
    await page.getByRole('heading', { name: /^Stacks/ }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'broken', TemplateBody: template({ fail: true }) }),
    );
    // the stack appears and is opened while its create still runs: what follows arrives over the feed
    await page.getByRole('link', { name: 'broken', exact: true }).click();
    await page.locator('h1 [data-status="CREATE_IN_PROGRESS"]').waitFor();
    await page.locator('h1 [data-status="ROLLBACK_COMPLETE"]').waitFor();
    const root = page.locator('.eventrow.root');
    await expect.poll(() => root.getAttribute('data-logical-id')).toBe('Config');
    expect(await root.textContent()).toContain('Root cause');
    expect(await page.locator('.eventrow[data-logical-id="Data"] [data-status="DELETE_COMPLETE"]').count()).toBe(1);
    await shot('events');
    await page.getByRole('tab', { name: 'Timeline' }).click();
    // the rollback is an operation of its own (its OperationId, as on AWS): the create is the one before it
    const ops = page.getByLabel('Operation');
    expect(await ops.locator('option').allTextContents()).toEqual([
      expect.stringMatching(/^ROLLBACK_IN_PROGRESS/),
      expect.stringMatching(/^CREATE_IN_PROGRESS/),
    ]);
    await ops.selectOption({ index: 1 });
    await page.locator('.tl-bar[data-status="CREATE_FAILED"]').waitFor();
    await shot('timeline');
    await waitForStack(server.client, StackId!);
  });

  it('draws the dependency graph coloured by status; a fault button makes the next deploy fail', async () => {
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'app', TemplateBody: template() }),
    );
    await waitForStack(server.client, StackId!);
    await openStack('app');
    await page.getByRole('tab', { name: 'Graph' }).click();
    const node = (id: string) => page.locator(`[data-node="${id}"]`);
    await node('Alarm').waitFor();
    for (const id of ['Data', 'Topic', 'Config', 'Alarm'])
      expect(await node(id).getAttribute('data-status')).toBe('CREATE_COMPLETE');
    expect(await page.locator('.edge').count()).toBe(4);
    await shot('graph');
    await page.getByRole('tab', { name: 'Resources' }).click();
    await page.getByRole('button', { name: "Fail Config's next update" }).click();
    await page.getByText('next update fails').waitFor();
    await server.client.send(new UpdateStackCommand({ StackName: 'app', TemplateBody: template({ value: 'v2' }) }));
    await page.getByRole('tab', { name: 'Graph' }).click();
    await page.locator('h1 [data-status="UPDATE_ROLLBACK_COMPLETE"]').waitFor();
    expect(await node('Config').getAttribute('data-status')).toBe('UPDATE_COMPLETE');
    await page.getByRole('tab', { name: 'Events' }).click();
    await expect.poll(() => page.locator('.eventrow.root').first().textContent()).toMatch(/Config.*UPDATE_FAILED/);
  });

  it('shows a nested stack under its parent, and its tabs answer the arrow keys', async () => {
    const url = await putTemplate(server, `Resources:\n${param('Inner')}`);
    const parent = `Resources:\n  Child:\n    Type: AWS::CloudFormation::Stack\n    Properties: { TemplateURL: '${url}' }\n`;
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'tree', TemplateBody: parent }));
    await waitForStack(server.client, StackId!);
    await page.goto(`${server.endpoint}/_cfn-local/console/`);
    const rows = page.locator('.stackrow[data-stack]');
    await page.getByRole('link', { name: /^└ tree-Child-/ }).waitFor();
    const names = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-stack')));
    // the child sits right under its parent
    expect(names.indexOf('tree') + 1).toBe(names.findIndex((n) => n?.startsWith('tree-Child-')));
    await openStack('tree');
    await page.locator('a.chip', { hasText: 'tree-Child-' }).waitFor();
    await page.getByRole('tab', { name: 'Events' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('tab', { name: 'Timeline' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Timeline');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByRole('tab', { name: 'Change sets' }).getAttribute('aria-selected')).toBe('true');
  });

  it('browses the account: a bucket’s objects, a function invoked, a bucket made non-empty', async () => {
    const { StackId } = await server.client.send(new CreateStackCommand({ StackName: 'fn', TemplateBody: FUNCTION }));
    await waitForStack(server.client, StackId!);
    const bucketName = (await server.client.send(new DescribeStacksCommand({ StackName: 'app' }))).Stacks![0]
      .Outputs![0].OutputValue!;
    await s3Client(server.endpoint).send(
      new PutObjectCommand({ Bucket: bucketName, Key: 'reports/1.txt', Body: 'hello' }),
    );
    await page.goto(`${server.endpoint}/_cfn-local/console/#/account`);
    const bucket = page.locator('.world-item', { hasText: 'app / Data' });
    await bucket.getByRole('button', { name: 'List objects' }).click();
    await bucket.getByText('reports/1.txt').waitFor();
    const fn = page.locator('.world-item', { hasText: 'fn / Echo' });
    await fn.getByLabel('Event (JSON)').fill('{"ping": 1}');
    await fn.getByRole('button', { name: 'Invoke' }).click();
    await expect.poll(() => fn.getByRole('status').textContent()).toMatch(/HTTP 200\s+\{"echo":\{"ping":1\}\}/);
    await bucket.getByRole('button', { name: 'Make non-empty' }).click();
    await bucket.getByText('dataItems').waitFor();
    await page.evaluate(() => scrollTo(0, 0));
    await shot('account');
  });

  it('marks a stateful replacement in a change set diff as data loss', async () => {
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'app',
        ChangeSetName: 'rename-bucket',
        TemplateBody: template({ bucketName: 'app-data-renamed' }),
      }),
    );
    await waitUntilChangeSetCreateComplete(
      { client: server.client, maxWaitTime: 20, minDelay: 1 },
      { ChangeSetName: Id },
    );
    await openStack('app');
    await page.getByRole('tab', { name: 'Change sets' }).click();
    await page.getByRole('button', { name: 'rename-bucket' }).click();
    const change = page.locator('[data-change="Data"]');
    await change.waitFor();
    expect(await change.textContent()).toMatch(/Modify.*Replacement: True/);
    expect(await change.locator('.dataloss').textContent()).toMatch(/data (lost|retained|unknown) \(\d+ items\)/);
    await shot('change-set');
  });

  it('edits a property out of band, and the Drift tab detects it as MODIFIED with the difference', async () => {
    await page.goto(`${server.endpoint}/_cfn-local/console/#/account`);
    const param = page.locator('.world-item', { hasText: 'app / Alarm' });
    await param.getByRole('button', { name: 'Edit a property' }).click();
    await param.getByLabel(/^Properties merge patch/).fill('{"Value": "edited out of band"}');
    await param.getByRole('button', { name: 'Apply' }).click();
    await param.getByRole('button', { name: 'Edit a property' }).and(page.locator('[aria-expanded="false"]')).waitFor();
    await openStack('app');
    await page.getByRole('tab', { name: 'Drift' }).click();
    await page.locator('.drift [data-status="NOT_CHECKED"]').first().waitFor();
    await page.getByRole('button', { name: 'Detect drift' }).click();
    // the detection's end arrives over the feed: nothing here reloads the page
    await page.locator('.drift p [data-status="DRIFTED"]').waitFor();
    expect(await page.locator('[data-drift="Alarm"] .status').getAttribute('data-status')).toBe('MODIFIED');
    expect(await page.locator('[data-drift="Config"] .status').getAttribute('data-status')).toBe('IN_SYNC');
    const difference = page.locator('.differences [data-path="/Value"]');
    expect(await difference.textContent()).toMatch(/NOT_EQUAL: expected .+, actual edited out of band$/);
    expect(await page.locator('.drift').textContent()).toMatch(/1 resource drifted/);
    await shot('drift');
  });

  it('shows a stack set: its instances per account and region, a failed region, its operation and results', async () => {
    const admin = clientFor(server, ADMIN);
    await admin.send(new CreateStackSetCommand({ StackSetName: 'fleet', TemplateBody: SET_TEMPLATE }));
    const { OperationId } = await admin.send(
      new CreateStackInstancesCommand({
        StackSetName: 'fleet',
        Accounts: [A, B],
        Regions: ['us-east-1', 'eu-west-1'],
        OperationPreferences: {
          RegionOrder: ['us-east-1', 'eu-west-1'],
          FailureToleranceCount: 1,
          MaxConcurrentCount: 2,
        },
      }),
    );
    await waitForOperation(admin, 'fleet', OperationId!);
    await page.goto(`${server.endpoint}/_cfn-local/console/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Stack sets' }).click();
    const set = page.getByRole('article', { name: 'fleet' });
    await set.getByRole('heading', { name: /fleet/ }).waitFor();
    const grid = set.getByRole('table', { name: 'Stack instances of fleet' });
    expect(await grid.locator(`[data-instance="${A}/us-east-1"] .status`).textContent()).toBe('CURRENT');
    expect(await grid.locator(`[data-instance="${A}/eu-west-1"] .status`).textContent()).toBe('OUTDATED');
    expect(await grid.locator(`[data-instance="${A}/eu-west-1"] .reason`).textContent()).toMatch(
      /^ResourceLogicalId:Bad, ResourceType:AWS::SSM::Parameter/,
    );
    const op = set.locator(`[data-operation="${OperationId}"]`);
    expect(await op.locator('summary .status').textContent()).toBe('FAILED');
    await op.locator('summary').click();
    await op.getByText(`${B} / eu-west-1:`).waitFor();
    await shot('stack-sets');
    // an instance links to its stack, in its own account and region
    await grid.locator(`[data-instance="${B}/us-east-1"]`).getByRole('link', { name: 'stack' }).click();
    await page.getByRole('heading', { name: /^StackSet-fleet-/ }).waitFor();
  });

  // last: it empties the server the tests above filled
  it('the Reset button asks first, and once confirmed empties stacks, resources and faults', async () => {
    await server.client.send(new CreateStackCommand({ StackName: 'doomed', TemplateBody: FUNCTION }));
    await fetch(`${server.endpoint}/_cfn-local/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'Create', stackName: 'doomed-next' }),
    });
    await page.goto(`${server.endpoint}/_cfn-local/console/#/account`);
    await page.getByText('Create of doomed-next').waitFor();
    page.once('dialog', (d) => void d.dismiss());
    await page.getByRole('button', { name: 'Reset the server' }).click();
    await page.goto(`${server.endpoint}/_cfn-local/console/`);
    await page.getByRole('link', { name: 'doomed', exact: true }).waitFor();
    await page.goto(`${server.endpoint}/_cfn-local/console/#/account`);
    await page.getByText('Create of doomed-next').waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Reset the server' }).click();
    await page.getByText('No faults registered.').waitFor();
    await page.getByText('The simulated account holds no resources.').waitFor();
    await page.getByRole('link', { name: 'Stacks', exact: true }).click();
    await expect.poll(() => page.locator('.stackrow[data-stack]').count()).toBe(0);
    expect((await server.client.send(new ListStacksCommand({}))).StackSummaries).toEqual([]);
  });
});
