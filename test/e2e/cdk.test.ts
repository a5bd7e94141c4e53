// The CDK dev loop against cfn-local with the real aws-cdk CLI and nothing but AWS_ENDPOINT_URL (plus dummy
// credentials and a region): bootstrap, deploy of a two-stack app with a file asset and an export/import through the
// default synthesizer (roles assumed through STS, the version read from SSM, assets and templates put in S3), a
// redeploy with no change, a deploy with a change, diff, a hotswap of the Lambda code, and destroy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeleteStackCommand,
  DescribeStacksCommand,
  ListExportsCommand,
  ListImportsCommand,
} from '@aws-sdk/client-cloudformation';
import { GetFunctionConfigurationCommand, InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { endpointUrlAwsCli, run } from './clients.js';
import { ACCOUNT, REGION, STEP_MS, cdkHarness, ok, type CdkHarness } from './cdkHarness.js';

describe('the CDK dev loop (aws-cdk CLI, AWS_ENDPOINT_URL only)', () => {
  let server: TestServer;
  let h: CdkHarness;
  let env: NodeJS.ProcessEnv;
  const credentials = { accessKeyId: 'test', secretAccessKey: 'test' };
  const stack = (name: string) => h.stack(name);
  const assembly = (variant: string) => h.assembly(variant);
  const cdk = (...args: string[]) => h.cdk(...args);

  /** Synthesizes the app with its file asset (answering `code`) and the BucketDeployment's site. */
  async function synth(variant: string, code: string, extra: Record<string, string> = {}) {
    const asset = join(h.work, `asset-${variant}`);
    mkdirSync(asset, { recursive: true });
    writeFileSync(join(asset, 'index.js'), `exports.handler = async () => ${JSON.stringify(code)};\n`);
    const site = join(h.work, 'site');
    mkdirSync(join(site, 'css'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<h1>hello</h1>\n');
    writeFileSync(join(site, 'css', 'site.css'), 'h1 { color: red }\n');
    await h.synth(variant, { CFN_LOCAL_E2E_ASSET: asset, CFN_LOCAL_E2E_SITE: site, ...extra });
  }

  beforeAll(async () => {
    server = await startServer();
    h = cdkHarness({ app: 'cdk-app', endpoint: server.endpoint, client: server.client });
    env = h.env;
    await Promise.all([
      synth('first', 'v1'),
      synth('changed', 'v1', { CFN_LOCAL_E2E_VARIANT: '2' }),
      synth('hot', 'v2', { CFN_LOCAL_E2E_VARIANT: '2' }),
      synth('tree', 'v1', { CFN_LOCAL_E2E_VARIANT: 'tree' }),
    ]);
  }, STEP_MS);
  afterAll(async () => {
    await server.close();
  });

  it(
    'cdk bootstrap with default options creates CDKToolkit and its version parameter',
    async () => {
      const out = ok(await cdk('bootstrap', `aws://${ACCOUNT}/${REGION}`));
      expect(out).toContain('Environment aws://000000000000/us-east-1 bootstrapped');
      expect((await stack('CDKToolkit')).StackStatus).toBe('CREATE_COMPLETE');
      const ssm = new SSMClient({ endpoint: server.endpoint, region: REGION, credentials });
      expect(
        Number(
          (await ssm.send(new GetParameterCommand({ Name: '/cdk-bootstrap/hnb659fds/version' }))).Parameter!.Value,
        ),
      ).toBeGreaterThan(20);
    },
    STEP_MS,
  );

  it(
    'cdk deploy --all deploys both stacks with the file asset and the export/import',
    async () => {
      ok(await cdk('deploy', '--all', '--app', assembly('first')));
      expect((await stack('E2eProducer')).StackStatus).toBe('CREATE_COMPLETE');
      expect((await stack('E2eConsumer')).StackStatus).toBe('CREATE_COMPLETE');
      expect((await stack('E2eCustom')).StackStatus).toBe('CREATE_COMPLETE');
      const producerId = (await stack('E2eProducer')).StackId;
      const { Exports } = await server.client.send(new ListExportsCommand({}));
      const exported = Exports!.find((e) => e.ExportingStackId === producerId);
      expect(exported).toBeDefined();
      expect((await server.client.send(new ListImportsCommand({ ExportName: exported!.Name }))).Imports).toEqual([
        'E2eConsumer',
      ]);
    },
    STEP_MS,
  );

  it("runs the CDK's own custom resources: BucketDeployment, AwsCustomResource, Provider framework with isComplete", async () => {
    const outputs = Object.fromEntries((await stack('E2eCustom')).Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(outputs).toMatchObject({ GreetingValue: 'hello-custom', Doubled: '42', ThingId: 'thing-21' });
    // isComplete answered "not yet" once, so the framework's waiter state machine retried it before it completed
    expect(outputs).toMatchObject({ SlowPolls: '2', SlowDoubled: '10' });
    const s3 = new S3Client({ endpoint: server.endpoint, region: REGION, credentials, forcePathStyle: true });
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: outputs.SiteBucket }));
    expect(listed.Contents!.map((o) => o.Key).sort()).toEqual(['css/site.css', 'index.html']);
  });

  it('the NestedStack is a child stack of E2eProducer, and the parent reads its output', async () => {
    const producer = await stack('E2eProducer');
    const children = (await server.client.send(new DescribeStacksCommand({}))).Stacks!.filter(
      (s) => s.ParentId === producer.StackId,
    );
    expect(children.map((s) => [s.StackName!.replace(/-[A-Z0-9]{13}$/, ''), s.StackStatus])).toEqual([
      [expect.stringMatching(/^E2eProducer-SettingsNestedStack/), 'CREATE_COMPLETE'],
    ]);
    const ssm = new SSMClient({ endpoint: server.endpoint, region: REGION, credentials });
    expect((await ssm.send(new GetParameterCommand({ Name: '/e2e/producer/nested-mode' }))).Parameter!.Value).toBe(
      'nested',
    );
  });

  it(
    'aws ssm get-parameter reads the parameter the stack created',
    async () => {
      const { cli } = await endpointUrlAwsCli();
      if (!cli) return;
      const result = await run(cli, ['--output', 'json', 'ssm', 'get-parameter', '--name', '/e2e/producer/bucket'], {
        env,
        timeoutMs: STEP_MS,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).Parameter.Value).toMatch(/^e2eproducer-data/);
    },
    STEP_MS,
  );

  it(
    "a failing nested stack: the deploy display shows the child's own events and its CREATE_FAILED, then the parent's",
    async () => {
      const result = await cdk('deploy', '--app', assembly('tree'), 'E2eTree');
      expect(result.code).not.toBe(0);
      const lines = `${result.stdout}${result.stderr}`.split('\n');
      const at = (pattern: RegExp) => {
        const index = lines.findIndex((l) => pattern.test(l));
        expect(index, `a line matching ${pattern} in:\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
        return index;
      };
      // the child's own events, under the child's name, from its first resource to its rollback
      const child = /^E2eTree-Branch[A-Za-z0-9]*-[A-Z0-9]{13} \|/;
      const leafStart = at(new RegExp(`${child.source}.*\\| CREATE_IN_PROGRESS +\\| AWS::SSM::Parameter +\\| .*Leaf`));
      const leafDone = at(new RegExp(`${child.source}.*\\| CREATE_COMPLETE +\\| AWS::SSM::Parameter +\\| .*Leaf`));
      const childFailed = at(
        new RegExp(`${child.source}.*\\| CREATE_FAILED +\\| AWS::SSM::Parameter +\\| .*Broken.*the nested failure`),
      );
      const childRolledBack = at(new RegExp(`${child.source}.*\\| ROLLBACK_COMPLETE +\\| AWS::CloudFormation::Stack`));
      // then the parent's failure of the nested resource
      const parentFailed = at(/^E2eTree \|.*\| CREATE_FAILED +\| AWS::CloudFormation::Stack +\| .*Embedded stack/);
      expect([leafStart, leafDone, childFailed, childRolledBack, parentFailed]).toEqual(
        [leafStart, leafDone, childFailed, childRolledBack, parentFailed].sort((a, b) => a - b),
      );
      const tree = await stack('E2eTree');
      expect(tree.StackStatus).toBe('ROLLBACK_COMPLETE');
      await server.client.send(new DeleteStackCommand({ StackName: tree.StackId }));
      await waitForStack(server.client, tree.StackId!);
    },
    STEP_MS,
  );

  it(
    'a redeploy with no change leaves both stacks as they were',
    async () => {
      const before = await stack('E2eProducer');
      const out = ok(await cdk('deploy', '--all', '--app', assembly('first')));
      expect(out).toContain('(no changes)');
      expect((await stack('E2eProducer')).LastUpdatedTime).toEqual(before.LastUpdatedTime);
    },
    STEP_MS,
  );

  it(
    'a deploy with a change updates the stack that changed',
    async () => {
      ok(await cdk('deploy', '--all', '--app', assembly('changed')));
      expect((await stack('E2eProducer')).StackStatus).toBe('UPDATE_COMPLETE');
      const ssm = new SSMClient({ endpoint: server.endpoint, region: REGION, credentials });
      expect((await ssm.send(new GetParameterCommand({ Name: '/e2e/producer/stage' }))).Parameter!.Value).toBe(
        'second',
      );
    },
    STEP_MS,
  );

  it(
    'cdk diff shows the Lambda code change still to deploy',
    async () => {
      const out = ok(await cdk('diff', '--app', assembly('hot'), 'E2eConsumer'));
      expect(out).toContain('AWS::Lambda::Function');
    },
    STEP_MS,
  );

  it(
    "cdk deploy --hotswap changes the function's code without a stack update",
    async () => {
      const lambda = new LambdaClient({ endpoint: server.endpoint, region: REGION, credentials });
      const name = (await stack('E2eConsumer')).Outputs!.find((o) => o.OutputKey === 'FunctionName')!.OutputValue!;
      const before = await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }));
      const stackBefore = await stack('E2eConsumer');
      const run = async () =>
        Buffer.from((await lambda.send(new InvokeCommand({ FunctionName: name }))).Payload!).toString('utf8');
      expect(await run()).toBe('"v1"');
      const out = ok(await cdk('deploy', '--hotswap', '--app', assembly('hot'), 'E2eConsumer'));
      expect(out).toContain('hotswapped');
      expect((await lambda.send(new GetFunctionConfigurationCommand({ FunctionName: name }))).CodeSha256).not.toBe(
        before.CodeSha256,
      );
      expect((await stack('E2eConsumer')).LastUpdatedTime).toEqual(stackBefore.LastUpdatedTime);
      expect(await run()).toBe('"v2"');
    },
    STEP_MS,
  );

  it(
    'cdk destroy --all removes the stacks, the autoDeleteObjects bucket emptied first',
    async () => {
      ok(await cdk('destroy', '--all', '--force', '--app', assembly('hot')));
      const live = (await server.client.send(new DescribeStacksCommand({}))).Stacks!.map((s) => s.StackName);
      expect(live).toEqual(['CDKToolkit']);
    },
    STEP_MS,
  );
});
