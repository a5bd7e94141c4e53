// The web console in a real browser (Debian's chromium driven by playwright-core), the parts test/e2e/console.test.ts
// leaves out: the stack list's live rows, filters and search; a stack's outputs, parameters, tags and policy; its
// template original and processed, highlighted; the fail-next-create and fail-next-delete buttons and a fault
// removed before it fires; the graph recoloured live; a change set's add, modify and remove; the control token; a
// stack of hundreds of events; a retained leftover; landmarks, labels and keyboard use; no host but the server's.
// One server and one browser for the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DeleteStackCommand,
  UpdateStackCommand,
  waitUntilChangeSetCreateComplete,
} from '@aws-sdk/client-cloudformation';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { A, clientFor } from '../api/stackSetsHelpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CONSOLE = '/_cfn-local/console/';
const SHOTS = process.env.CFN_LOCAL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'cfn-console-'));

const param = (value: string, metadata = '') => `
    Type: AWS::SSM::Parameter${metadata ? `\n    Metadata: { cfn-local: ${metadata} }` : ''}
    Properties: { Type: String, Value: ${value} }`;
const ONE = (metadata = '') => `Resources:\n  Config:${param('one', metadata)}\n`;

/** Parameters of each kind the Parameters tab shows, outputs with a description and an export. */
const DETAILED = `Parameters:
  Env: { Type: String, Default: dev }
  Secret: { Type: String, NoEcho: true }
  Shared: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /shared/name }
Resources:
  Data:
    Type: AWS::S3::Bucket
  Config:${param('!Ref Env')}
Outputs:
  BucketName:
    Description: Where the reports go
    Value: !Ref Data
    Export: { Name: reports-bucket }
  Setting:
    Value: !Sub '\${Env}-\${Shared}'
`;

const POLICY = JSON.stringify(
  {
    Statement: [
      { Effect: 'Allow', Action: 'Update:*', Principal: '*', Resource: '*' },
      { Effect: 'Deny', Action: 'Update:Replace', Principal: '*', Resource: 'LogicalResourceId/Data' },
    ],
  },
  null,
  2,
);

/** Fn::ForEach, which only the processed template shows expanded. */
const LOOPED = `Transform: AWS::LanguageExtensions
Resources:
  Fn::ForEach::Topics:
    - Name
    - [Orders, Invoices]
    - 'Topic\${Name}':
        Type: AWS::SNS::Topic
Outputs:
  # the first topic
  Orders:
    Value: !Ref TopicOrders
`;

const bucketed = (name: string) => `Resources:
  Data:
    Type: AWS::S3::Bucket
    Properties: { BucketName: ${name} }
  Config:${param('!Ref Data')}
`;

let server: TestServer;
let browser: Browser;
let page: Page;
/** Every URL the page asked for: all of them must be the server's own (no CDN, no network). */
const requested: string[] = [];

// CI installs chromium (.ci/run); a developer without it skips these, and CI, which has it, cannot.
describe.skipIf(!existsSync(CHROMIUM) && !process.env.CI)('the web console: stacks, tabs, faults', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
    // a step that cannot happen fails in 10 s with the locator it waited for, not at the test's timeout
    page.setDefaultTimeout(10_000);
    page.on('request', (req) => requested.push(req.url()));
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`) });
  const create = async (StackName: string, TemplateBody: string, extra = {}, client = server.client) => {
    const { StackId } = await client.send(new CreateStackCommand({ StackName, TemplateBody, ...extra }));
    return waitForStack(client, StackId!);
  };
  const openStack = async (name: string) => {
    await page.goto(`${server.endpoint}${CONSOLE}`);
    await page.getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { name: new RegExp(`^${name} `) }).waitFor();
  };
  const tab = (name: string) => page.getByRole('tab', { name }).click();
  /** The names the stack list shows now, once its heading counts `count` of them. */
  const listed = async (count: number) => {
    await page.getByRole('heading', { name: `Stacks (${count})` }).waitFor();
    const names = await page.locator('.stackrow[data-stack]').evaluateAll((els) => els.map((e) => e.dataset.stack));
    return names.sort();
  };

  it('lists stacks live, filtered by account, region and state, searched by name or status', async () => {
    await page.goto(`${server.endpoint}${CONSOLE}`);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    // a stack created while the page is open appears, and its status changes in the list as its create runs
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'web-slow', TemplateBody: ONE('{ DelayMs: 1500 }') }),
    );
    const slow = page.locator('.stackrow[data-stack="web-slow"]');
    await slow.locator('[data-status="CREATE_IN_PROGRESS"]').waitFor();
    await slow.locator('[data-status="CREATE_COMPLETE"]').waitFor();
    await waitForStack(server.client, StackId!);
    await create('web-broken', ONE('{ Fail: Create }'));
    const gone = await create('gone', ONE());
    await server.client.send(new DeleteStackCommand({ StackName: gone.StackId }));
    await waitForStack(server.client, gone.StackId!);
    await create('api', ONE(), {}, clientFor(server, A, 'eu-west-1'));

    // active (the default): all but the deleted one
    expect(await listed(3)).toEqual(['api', 'web-broken', 'web-slow']);
    expect(await slow.locator('.status').getAttribute('class')).toContain('success');
    expect(await page.locator('.stackrow[data-stack="web-broken"] .status').getAttribute('class')).toContain('error');
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('web');
    expect(await listed(2)).toEqual(['web-broken', 'web-slow']);
    // a status matches too, in any case
    await search.fill('rollback');
    expect(await listed(1)).toEqual(['web-broken']);
    await search.fill('');
    const account = page.getByRole('combobox', { name: /^Account/ });
    expect(await account.locator('option').allTextContents()).toEqual(['All', '000000000000', A]);
    await account.selectOption(A);
    expect(await listed(1)).toEqual(['api']);
    await account.selectOption('');
    const region = page.getByRole('combobox', { name: /^Region/ });
    await region.selectOption('us-east-1');
    expect(await listed(2)).toEqual(['web-broken', 'web-slow']);
    await region.selectOption('');
    const show = page.getByRole('combobox', { name: /^Show/ });
    await show.selectOption('failed');
    expect(await listed(1)).toEqual(['web-broken']);
    await show.selectOption('deleted');
    expect(await listed(1)).toEqual(['gone']);
    expect(await page.locator('.stackrow[data-stack="gone"] .status').textContent()).toContain('DELETE_COMPLETE');
    await show.selectOption('all');
    expect(await listed(4)).toEqual(['api', 'gone', 'web-broken', 'web-slow']);
    await shot('stacks');
    await search.fill('nothing-like-this');
    await page.getByText('No stacks to show.').waitFor();
  });

  it('shows outputs, parameters (NoEcho masked, SSM resolved), tags and the stack policy, highlighted', async () => {
    const ssm = new SSMClient({
      endpoint: server.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await ssm.send(new PutParameterCommand({ Name: '/shared/name', Type: 'String', Value: 'from-ssm' }));
    const stack = await create('detailed', DETAILED, {
      Parameters: [{ ParameterKey: 'Secret', ParameterValue: 'hunter2' }],
      Tags: [
        { Key: 'team', Value: 'platform' },
        { Key: 'cost-centre', Value: '42' },
      ],
      StackPolicyBody: POLICY,
    });
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const bucket = stack.Outputs!.find((o) => o.OutputKey === 'BucketName')!.OutputValue!;
    await openStack('detailed');
    /** The table's body rows, each as its cells' texts. */
    const cells = (caption: string) =>
      page
        .getByRole('table', { name: caption })
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent)));

    await tab('Outputs');
    expect(await cells('Outputs')).toEqual([
      ['BucketName', bucket, 'Where the reports go', 'reports-bucket'],
      ['Setting', 'dev-from-ssm', '', ''],
    ]);
    await tab('Parameters');
    expect((await cells('Parameters')).sort()).toEqual([
      ['Env', 'dev', ''],
      ['Secret', '****', ''],
      ['Shared', '/shared/name', 'from-ssm'],
    ]);
    expect(await page.locator('.panel').textContent()).not.toContain('hunter2');
    await tab('Tags');
    expect(await cells('Tags')).toEqual([
      ['team', 'platform'],
      ['cost-centre', '42'],
    ]);
    await tab('Policy');
    const policy = page.getByLabel('Stack policy');
    expect(JSON.parse((await policy.textContent())!)).toEqual(JSON.parse(POLICY));
    expect(await policy.locator('.t-key').allTextContents()).toContain('"Effect"');
    expect(await policy.locator('.t-string').allTextContents()).toContain('"LogicalResourceId/Data"');
    await tab('Resources');
    const resources = (await cells('Resources')).sort();
    expect(resources.map((r) => [r[0], r[2]])).toEqual([
      ['Config', 'AWS::SSM::Parameter'],
      ['Data', 'AWS::S3::Bucket'],
    ]);
    expect(resources.every((r) => r[3].includes('CREATE_COMPLETE'))).toBe(true);
  });

  it('shows the template as written and as processed (Fn::ForEach expanded), highlighted', async () => {
    expect((await create('looped', LOOPED, { Capabilities: ['CAPABILITY_AUTO_EXPAND'] })).StackStatus).toBe(
      'CREATE_COMPLETE',
    );
    await openStack('looped');
    await tab('Template');
    expect(await page.getByRole('radio', { name: 'Original' }).isChecked()).toBe(true);
    const original = page.getByLabel('Original template');
    expect(await original.textContent()).toBe(LOOPED);
    expect(await original.locator('.t-key').allTextContents()).toEqual(
      expect.arrayContaining(['Transform', 'Resources', 'Fn::ForEach::Topics', 'Outputs', 'Value']),
    );
    expect(await original.locator('.t-tag').allTextContents()).toEqual(['!Ref']);
    expect(await original.locator('.t-comment').allTextContents()).toEqual(['# the first topic']);
    expect(await original.locator('.t-string').allTextContents()).toEqual(["'Topic${Name}'"]);
    await shot('template');

    await page.getByRole('radio', { name: 'Processed' }).check();
    const processed = page.getByLabel('Processed template');
    const expanded = JSON.parse((await processed.textContent())!) as { Resources: Record<string, unknown> };
    expect(Object.keys(expanded.Resources).sort()).toEqual(['TopicInvoices', 'TopicOrders']);
    expect(await processed.locator('.t-key').allTextContents()).toEqual(
      expect.arrayContaining(['"TopicOrders"', '"TopicInvoices"', '"Type"']),
    );
    expect(await processed.textContent()).not.toContain('Fn::ForEach');
  });

  it('fail next create and fail next delete: the next deploy through the SDK fails at that resource', async () => {
    const { StackId } = await create('faulty', bucketed('faulty-a'));
    await openStack('faulty');
    await tab('Resources');
    await page.getByRole('button', { name: "Fail Data's next create" }).click();
    await page.getByText('next create fails').waitFor();
    // a new bucket name replaces the bucket: the new one's create is the next create, and it fails
    await server.client.send(new UpdateStackCommand({ StackName: 'faulty', TemplateBody: bucketed('faulty-b') }));
    await page.locator('h1 [data-status="UPDATE_ROLLBACK_COMPLETE"]').waitFor();
    await tab('Events');
    // the newest operation's root cause comes first
    const root = page.locator('.eventrow.root').first();
    await expect.poll(() => root.getAttribute('data-logical-id')).toBe('Data');
    expect(await root.locator('.status').textContent()).toContain('UPDATE_FAILED');

    await tab('Resources');
    await page.getByRole('button', { name: "Fail Config's next delete" }).click();
    await page.getByText('next delete fails').waitFor();
    await server.client.send(new DeleteStackCommand({ StackName: 'faulty' }));
    await page.locator('h1 [data-status="DELETE_FAILED"]').waitFor();
    await tab('Events');
    await expect.poll(() => root.getAttribute('data-logical-id')).toBe('Config');
    expect(await root.locator('.status').textContent()).toContain('DELETE_FAILED');
    // the fault was for one delete: the next one goes through
    await server.client.send(new DeleteStackCommand({ StackName: StackId }));
    await page.locator('h1 [data-status="DELETE_COMPLETE"]').waitFor();
  });

  it('a fault removed from the Faults list before it fires leaves the next update alone', async () => {
    await create('spared', ONE());
    await openStack('spared');
    await tab('Resources');
    await page.getByRole('button', { name: "Fail Config's next update" }).click();
    await page.getByText('next update fails').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Simulated account' }).click();
    const faults = page.getByRole('region', { name: 'Faults' });
    const fault = faults.getByRole('listitem').filter({ hasText: 'Update of spared / Config (1 time)' });
    await fault.getByRole('button', { name: 'Remove' }).click();
    await faults.getByText('No faults registered.').waitFor();
    const updated = await server.client.send(
      new UpdateStackCommand({ StackName: 'spared', TemplateBody: ONE().replace('one', 'two') }),
    );
    expect((await waitForStack(server.client, updated.StackId!)).StackStatus).toBe('UPDATE_COMPLETE');
  });

  it('colours the graph by live status: a node turns in-progress blue, then complete green, as an update runs', async () => {
    await openStack('spared');
    await tab('Graph');
    const node = page.locator('[data-node="Config"]');
    await node.and(page.locator('[data-status="UPDATE_COMPLETE"]')).waitFor();
    const slow = ONE('{ DelayMs: 1500 }').replace('one', 'three');
    await server.client.send(new UpdateStackCommand({ StackName: 'spared', TemplateBody: slow }));
    // the graph was drawn before the update: what follows is the feed's events
    await node.and(page.locator('[data-status="UPDATE_IN_PROGRESS"]')).waitFor();
    expect(await node.getAttribute('class')).toBe('node info');
    await node.and(page.locator('[data-status="UPDATE_COMPLETE"]')).waitFor();
    await page.locator('h1 [data-status="UPDATE_COMPLETE"]').waitFor();
    expect(await node.getAttribute('class')).toBe('node success');
  });

  it('reads a change set as a diff: added, modified in place with the values, removed', async () => {
    const pair = (keep: string, extra: boolean) =>
      `Resources:\n  Keep:${param(keep)}\n${extra ? `  Extra:${param('new')}\n` : `  Drop:${param('old')}\n`}`;
    await create('pair', pair('v1', false));
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({ StackName: 'pair', ChangeSetName: 'reshape', TemplateBody: pair('v2', true) }),
    );
    await waitUntilChangeSetCreateComplete(
      { client: server.client, maxWaitTime: 20, minDelay: 1 },
      { ChangeSetName: Id },
    );
    await openStack('pair');
    await tab('Change sets');
    await page.getByRole('button', { name: 'reshape' }).click();
    const change = (id: string) => page.locator(`[data-change="${id}"]`);
    await change('Keep').waitFor();
    expect(await change('Keep').getAttribute('class')).toContain('modify');
    expect(await change('Keep').locator('p').first().textContent()).toMatch(
      /^Modify Keep AWS::SSM::Parameter · Replacement: False$/,
    );
    const detail = change('Keep').locator('.details li');
    expect(await detail.textContent()).toMatch(/^Properties Value · recreation Never/);
    expect([await detail.locator('del').textContent(), await detail.locator('ins').textContent()]).toEqual([
      'v1',
      'v2',
    ]);
    expect(await change('Extra').getAttribute('class')).toContain('add');
    expect(await change('Extra').textContent()).toMatch(/^Add Extra AWS::SSM::Parameter/);
    expect(await change('Drop').getAttribute('class')).toContain('remove');
    expect(await change('Drop').textContent()).toMatch(/^Remove Drop AWS::SSM::Parameter/);
    // parameters hold no data: nothing is marked as lost
    expect(await page.locator('.dataloss').count()).toBe(0);
  });

  it('asks for the control token when the server has one, and keeps it for the tab', async () => {
    const guarded = await startServer({ controlToken: 'console-secret' });
    const other = await browser.newPage();
    other.setDefaultTimeout(10_000);
    try {
      await other.goto(`${guarded.endpoint}${CONSOLE}`);
      await other.getByRole('heading', { name: 'This server has a control token' }).waitFor();
      const stacksRead = (status: number) =>
        other.waitForResponse((r) => r.url().endsWith('/_cfn-local/stacks') && r.status() === status);
      await other.getByLabel('Control token').fill('not-it');
      await Promise.all([stacksRead(401), other.getByRole('button', { name: 'Open the console' }).click()]);
      expect(await other.getByRole('heading', { name: 'This server has a control token' }).count()).toBe(1);
      await other.getByLabel('Control token').fill('console-secret');
      await Promise.all([stacksRead(200), other.getByRole('button', { name: 'Open the console' }).click()]);
      await other.getByRole('heading', { name: /^Stacks/ }).waitFor();
      // the feed, read with the token, brings a stack created now
      await other.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      await create('guarded', ONE(), {}, guarded.client);
      await other.getByRole('link', { name: 'guarded', exact: true }).waitFor();
      // kept for the tab: a reload asks no more
      await other.reload();
      await other.getByRole('link', { name: 'guarded', exact: true }).waitFor();
      expect(await other.getByRole('heading', { name: 'This server has a control token' }).count()).toBe(0);
    } finally {
      await other.close();
      await guarded.close();
    }
  });

  it('reads a stack of hundreds of events newest first, then the rest: the oldest reached, the root cause marked', async () => {
    const many = Array.from({ length: 90 }, (_, i) => `  P${i}:${param(`v${i}`)}`);
    const { StackId } = await create('many', `Resources:\n${many.join('\n')}\n`);
    many[0] = `  P0:${param('changed', '{ Fail: Update }')}`;
    await server.client.send(
      new UpdateStackCommand({ StackName: 'many', TemplateBody: `Resources:\n${many.join('\n')}\n` }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect((await allEvents(server.client, StackId!)).length).toBeGreaterThan(270);
    await openStack('many');
    // the root cause is marked only once every event is in (an older failure could be it), so its row appearing is
    // the moment the second read has ended; the heading shows before the first read has begun
    const root = page.locator('.eventrow.root');
    await root.waitFor();
    expect(await page.getByText(/reading the older ones/).count()).toBe(0);
    expect(await root.count()).toBe(1);
    expect(await root.getAttribute('data-logical-id')).toBe('P0');
    // the oldest event, the create's first, is at the bottom of the list
    await page.getByRole('list', { name: 'Events' }).evaluate((list) => list.scrollTo(0, list.scrollHeight));
    const oldest = page.locator('.vrow').last();
    await oldest.locator('.eventrow[data-logical-id="many"]').waitFor();
    expect(await oldest.textContent()).toMatch(/CREATE_IN_PROGRESS\s*User Initiated/);
  });

  it('lists a retained leftover in the simulated account without its deleted stack', async () => {
    const kept = await create('keeper', `Resources:\n  Kept:\n    DeletionPolicy: Retain${param('kept')}\n`);
    await server.client.send(new DeleteStackCommand({ StackName: 'keeper' }));
    await waitForStack(server.client, kept.StackId!);
    await page.goto(`${server.endpoint}${CONSOLE}#/account`);
    const params = page.getByRole('region', { name: 'AWS::SSM::Parameter' });
    const leftover = params.locator('.world-item').filter({ hasText: 'kept' });
    await leftover.waitFor();
    expect(await leftover.textContent()).toContain('no stack (retained or created outside)');
    expect(await leftover.textContent()).not.toContain('keeper');
  });

  it('has landmarks, a name on every control, and works from the keyboard', async () => {
    await page.goto(`${server.endpoint}${CONSOLE}`);
    await page.getByRole('heading', { name: /^Stacks/ }).waitFor();
    expect(await page.getByRole('banner').count()).toBe(1);
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(1);
    expect(await page.getByRole('main').count()).toBe(1);
    expect(await page.getByRole('search').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Stacks', exact: true }).getAttribute('aria-current')).toBe('page');
    /** The controls on the page without an accessible name of their own (a label, aria-label or text). */
    const unnamed = () =>
      page.locator('button, input, select, textarea, [tabindex="0"]').evaluateAll((els) =>
        els
          .filter((el) => {
            // a div or an svg <g> has no `labels`; a form control has them
            const labelled = (el as Partial<HTMLInputElement>).labels?.length || el.getAttribute('aria-label');
            return !labelled && !el.textContent.trim();
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
    expect(await unnamed()).toEqual([]);

    // the search box, then Enter on the one stack left, opens it
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.type('detailed');
    await listed(1);
    await page.getByRole('link', { name: 'detailed', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: /^detailed / }).waitFor();
    for (const t of ['Events', 'Resources', 'Graph', 'Template', 'Change sets']) {
      await tab(t);
      expect(await unnamed(), t).toEqual([]);
    }
    // a graph node takes the focus and says what it is
    await page.getByRole('tab', { name: 'Graph' }).click();
    await page.locator('[data-node="Config"]').focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Config, AWS::SSM::Parameter, CREATE_COMPLETE',
    );
    // Home and End move between the first and last tab
    await page.getByRole('tab', { name: 'Graph' }).focus();
    await page.keyboard.press('Home');
    expect(await page.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('End');
    expect(await page.getByRole('tab', { name: 'Change sets' }).getAttribute('aria-selected')).toBe('true');

    await page.goto(`${server.endpoint}${CONSOLE}#/account`);
    await page.getByRole('heading', { name: 'Simulated account' }).waitFor();
    expect(await unnamed()).toEqual([]);
  });

  // last: what every test above made the page ask for
  it('asks nothing of any host but its own server', () => {
    expect(requested.length).toBeGreaterThan(50);
    const origin = new URL(server.endpoint).origin;
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });
});
