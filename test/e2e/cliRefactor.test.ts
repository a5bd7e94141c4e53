// The AWS CLI stack refactor examples of AWS's documentation (the user guide's "Refactor stacks (AWS CLI)" and
// awscli/examples/cloudformation: create-stack-refactor, describe-stack-refactor, list-stack-refactor-actions,
// execute-stack-refactor) replayed against cfn-local with the templates they describe: a Lambda function and its
// role move from Stack1 to Stack2, then a topic moves and is renamed through the guide's resource-mapping.json.
// Debian's CLI v2.9.19 predates these commands, so the test runs the first CLI that has them (clients.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateStackCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsCliWith, gate, json, run } from './clients.js';

const found = await awsCliWith('create-stack-refactor');
const cli = gate('AWS CLI stack refactor examples', found.availability);

const ROLE = `  MyLambdaRole:
    Type: AWS::IAM::Role
    Properties:
      RoleName: MyTestLambdaRole
      AssumeRolePolicyDocument:
        Version: '2012-10-17'
        Statement: [{ Effect: Allow, Principal: { Service: lambda.amazonaws.com }, Action: sts:AssumeRole }]
`;
const FUNCTION = `  MyFunction:
    Type: AWS::Lambda::Function
    Properties:
      FunctionName: MyTestFunction
      Runtime: nodejs20.x
      Handler: index.handler
      Role: !GetAtt MyLambdaRole.Arn
      Code: { ZipFile: "exports.handler = async () => 'hello'" }
`;
const topic = (id: string, name: string) =>
  `  ${id}:\n    Type: AWS::SNS::Topic\n    Properties: { TopicName: ${name} }\n`;
const SNS_TOPIC = topic('MySNSTopic', 'MySNSTopic');
const SIMPLE = `  MySimpleSNSTopic:\n    Type: AWS::SNS::Topic\n    Properties: { DisplayName: MySimpleTopic }\n`;
const PLACEHOLDER = topic('Placeholder', 'Stack2Placeholder');
const template = (...resources: string[]) => `Resources:\n${resources.join('')}`;

describe.skipIf(cli.skip)(cli.title, { timeout: 120_000 }, () => {
  let server: TestServer;
  let dir: string;
  const aws = (...args: string[]) =>
    run(found.cli!, ['--endpoint-url', server.endpoint, '--output', 'json', 'cloudformation', ...args], { cwd: dir });
  const stackIds: Record<string, string> = {};

  /** describe-stack-refactor until `field` leaves its IN_PROGRESS value. */
  async function settled(id: string, field: 'Status' | 'ExecutionStatus') {
    for (let i = 0; i < 200; i++) {
      const described = json(await aws('describe-stack-refactor', '--stack-refactor-id', id));
      if (!String(described[field]).endsWith('_IN_PROGRESS')) return described;
    }
    throw new Error(`refactor ${id} never left ${field} *_IN_PROGRESS`);
  }

  beforeAll(async () => {
    server = await startServer();
    dir = mkdtempSync(join(tmpdir(), 'cfn-local-cli-refactor-'));
    for (const [StackName, TemplateBody] of [
      ['Stack1', template(ROLE, FUNCTION, SNS_TOPIC, SIMPLE)],
      ['Stack2', template(PLACEHOLDER)],
    ]) {
      const { StackId } = await server.client.send(
        new CreateStackCommand({ StackName, TemplateBody, Capabilities: ['CAPABILITY_NAMED_IAM'] }),
      );
      expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
      stackIds[StackName] = StackId!;
    }
    writeFileSync(join(dir, 'template1-updated.yaml'), template(SNS_TOPIC, SIMPLE));
    writeFileSync(join(dir, 'template2-updated.yaml'), template(PLACEHOLDER, ROLE, FUNCTION));
  });
  afterAll(async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  let refactorId = '';

  it('create-stack-refactor answers a StackRefactorId; describe-stack-refactor shows CREATE_COMPLETE', async () => {
    const { StackRefactorId } = json(
      await aws(
        'create-stack-refactor',
        '--stack-definitions',
        'StackName=Stack1,TemplateBody@=file://template1-updated.yaml',
        'StackName=Stack2,TemplateBody@=file://template2-updated.yaml',
        '--enable-stack-creation',
      ),
    );
    expect(StackRefactorId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    refactorId = StackRefactorId;
    expect(await settled(refactorId, 'Status')).toEqual({
      StackRefactorId: refactorId,
      StackIds: [stackIds.Stack1, stackIds.Stack2],
      ExecutionStatus: 'AVAILABLE',
      Status: 'CREATE_COMPLETE',
    });
  });

  it('list-stack-refactor-actions shows the two moves of the example, with its tags and descriptions', async () => {
    const mapping = (logicalId: string) => ({
      Source: { StackName: stackIds.Stack1, LogicalResourceId: logicalId },
      Destination: { StackName: stackIds.Stack2, LogicalResourceId: logicalId },
    });
    expect(json(await aws('list-stack-refactor-actions', '--stack-refactor-id', refactorId))).toEqual({
      StackRefactorActions: [
        {
          Action: 'MOVE',
          Entity: 'RESOURCE',
          PhysicalResourceId: 'MyTestLambdaRole',
          Description: 'No configuration changes detected.',
          Detection: 'AUTO',
          TagResources: [],
          UntagResources: [],
          ResourceMapping: mapping('MyLambdaRole'),
        },
        {
          Action: 'MOVE',
          Entity: 'RESOURCE',
          PhysicalResourceId: 'MyTestFunction',
          Description: 'Resource configuration changes will be validated during refactor execution.',
          Detection: 'AUTO',
          TagResources: [
            { Key: 'aws:cloudformation:stack-name', Value: 'Stack2' },
            { Key: 'aws:cloudformation:logical-id', Value: 'MyFunction' },
            { Key: 'aws:cloudformation:stack-id', Value: stackIds.Stack2 },
          ],
          UntagResources: [
            'aws:cloudformation:stack-name',
            'aws:cloudformation:logical-id',
            'aws:cloudformation:stack-id',
          ],
          ResourceMapping: mapping('MyFunction'),
        },
      ],
    });
  });

  it('execute-stack-refactor prints nothing; the refactor ends EXECUTE_COMPLETE with both stacks moved', async () => {
    const executed = await aws('execute-stack-refactor', '--stack-refactor-id', refactorId);
    expect(executed.code, executed.stderr).toBe(0);
    expect(executed.stdout).toBe('');
    expect(await settled(refactorId, 'ExecutionStatus')).toMatchObject({
      ExecutionStatus: 'EXECUTE_COMPLETE',
      Status: 'CREATE_COMPLETE',
    });
    const resources = async (stack: string) =>
      json(await aws('list-stack-resources', '--stack-name', stack)).StackResourceSummaries.map(
        (r: { LogicalResourceId: string; PhysicalResourceId: string }) =>
          `${r.LogicalResourceId}=${r.PhysicalResourceId}`,
      );
    expect(await resources('Stack2')).toEqual(
      expect.arrayContaining(['MyLambdaRole=MyTestLambdaRole', 'MyFunction=MyTestFunction']),
    );
    expect((await resources('Stack1')).map((r: string) => r.split('=')[0]).sort()).toEqual([
      'MySNSTopic',
      'MySimpleSNSTopic',
    ]);
  });

  it('create-stack-refactor --resource-mappings file://resource-mapping.json renames the topic as it moves', async () => {
    writeFileSync(
      join(dir, 'resource-mapping.json'),
      JSON.stringify([
        {
          Source: { StackName: 'Stack1', LogicalResourceId: 'MySNSTopic' },
          Destination: { StackName: 'Stack2', LogicalResourceId: 'MyLambdaSNSTopic' },
        },
      ]),
    );
    writeFileSync(join(dir, 'template1-updated.yaml'), template(SIMPLE));
    writeFileSync(
      join(dir, 'template2-updated.yaml'),
      template(PLACEHOLDER, ROLE, FUNCTION, topic('MyLambdaSNSTopic', 'MySNSTopic')),
    );
    const { StackRefactorId } = json(
      await aws(
        'create-stack-refactor',
        '--stack-definitions',
        'StackName=Stack1,TemplateBody@=file://template1-updated.yaml',
        'StackName=Stack2,TemplateBody@=file://template2-updated.yaml',
        '--enable-stack-creation',
        '--resource-mappings',
        'file://resource-mapping.json',
      ),
    );
    expect(await settled(StackRefactorId, 'Status')).toMatchObject({ Status: 'CREATE_COMPLETE' });
    const { StackRefactorActions } = json(
      await aws('list-stack-refactor-actions', '--stack-refactor-id', StackRefactorId),
    );
    expect(StackRefactorActions).toHaveLength(1);
    expect(StackRefactorActions[0]).toMatchObject({
      Action: 'MOVE',
      Detection: 'MANUAL',
      ResourceMapping: {
        Source: { StackName: stackIds.Stack1, LogicalResourceId: 'MySNSTopic' },
        Destination: { StackName: stackIds.Stack2, LogicalResourceId: 'MyLambdaSNSTopic' },
      },
    });
    expect((await aws('execute-stack-refactor', '--stack-refactor-id', StackRefactorId)).code).toBe(0);
    expect(await settled(StackRefactorId, 'ExecutionStatus')).toMatchObject({ ExecutionStatus: 'EXECUTE_COMPLETE' });
    const { StackResourceDetail } = json(
      await aws('describe-stack-resource', '--stack-name', 'Stack2', '--logical-resource-id', 'MyLambdaSNSTopic'),
    );
    expect(StackResourceDetail.PhysicalResourceId).toBe('arn:aws:sns:us-east-1:000000000000:MySNSTopic');
  });

  it('list-stack-refactors lists both, newest first, and filters by execution status', async () => {
    const { StackRefactorSummaries } = json(
      await aws('list-stack-refactors', '--execution-status-filter', 'EXECUTE_COMPLETE'),
    );
    expect(StackRefactorSummaries).toHaveLength(2);
    expect(StackRefactorSummaries[1]).toMatchObject({
      StackRefactorId: refactorId,
      Status: 'CREATE_COMPLETE',
      ExecutionStatus: 'EXECUTE_COMPLETE',
    });
    expect(json(await aws('list-stack-refactors', '--execution-status-filter', 'AVAILABLE'))).toEqual({
      StackRefactorSummaries: [],
    });
  });
});
