// The SSM API (awsJson 1.1) over the simulated account: parameters put through SSM are what stacks read, and what
// stacks create is what SSM reads. https://docs.aws.amazon.com/systems-manager/latest/APIReference/
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeleteParameterCommand,
  DeleteParametersCommand,
  DescribeParametersCommand,
  GetParameterCommand,
  GetParameterHistoryCommand,
  GetParametersByPathCommand,
  GetParametersCommand,
  LabelParameterVersionCommand,
  PutParameterCommand,
  SSMClient,
} from '@aws-sdk/client-ssm';
import { CreateStackCommand, DeleteStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
let ssm: SSMClient;
beforeAll(async () => {
  server = await startServer();
  ssm = new SSMClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});
afterAll(() => server.close());

describe('PutParameter and GetParameter', () => {
  it('creates version 1, refuses a second put without Overwrite, and makes version 2 with it', async () => {
    expect(
      await ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'one', Type: 'String' })),
    ).toMatchObject({ Version: 1, Tier: 'Standard' });
    expect(
      await awsErrorOf(ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'two', Type: 'String' }))),
    ).toMatchObject({
      code: 'ParameterAlreadyExists',
      status: 400,
      message:
        'The parameter already exists. To overwrite this value, set the overwrite option in the request to true.',
    });
    expect(
      (await ssm.send(new PutParameterCommand({ Name: '/app/db/host', Value: 'two', Overwrite: true }))).Version,
    ).toBe(2);
    const { Parameter } = await ssm.send(new GetParameterCommand({ Name: '/app/db/host' }));
    expect(Parameter).toMatchObject({
      Name: '/app/db/host',
      Type: 'String',
      Value: 'two',
      Version: 2,
      DataType: 'text',
      ARN: 'arn:aws:ssm:us-east-1:000000000000:parameter/app/db/host',
    });
    expect(Parameter!.LastModifiedDate).toBeInstanceOf(Date);
    expect((await ssm.send(new GetParameterCommand({ Name: '/app/db/host:1' }))).Parameter).toMatchObject({
      Value: 'one',
      Version: 1,
      Selector: ':1',
    });
  });

  it('reads versions by label, and answers AWS errors for a missing parameter or version', async () => {
    await ssm.send(new PutParameterCommand({ Name: 'plain', Value: 'a', Type: 'String' }));
    await ssm.send(new PutParameterCommand({ Name: 'plain', Value: 'b', Overwrite: true }));
    expect(
      await ssm.send(
        new LabelParameterVersionCommand({ Name: 'plain', ParameterVersion: 1, Labels: ['stable', 'aws-no'] }),
      ),
    ).toMatchObject({ InvalidLabels: ['aws-no'], ParameterVersion: 1 });
    expect((await ssm.send(new GetParameterCommand({ Name: 'plain:stable' }))).Parameter).toMatchObject({
      Value: 'a',
      Selector: ':stable',
    });
    expect(await awsErrorOf(ssm.send(new GetParameterCommand({ Name: '/nothing/here' })))).toMatchObject({
      code: 'ParameterNotFound',
      status: 400,
    });
    expect(await awsErrorOf(ssm.send(new GetParameterCommand({ Name: 'plain:7' })))).toMatchObject({
      code: 'ParameterVersionNotFound',
      message: 'Systems Manager could not find version 7 of plain. Verify the version and try again.',
    });
    const history = await ssm.send(new GetParameterHistoryCommand({ Name: 'plain' }));
    expect(history.Parameters!.map((p) => [p.Version, p.Value, p.Labels])).toEqual([
      [1, 'a', ['stable']],
      [2, 'b', []],
    ]);
  });

  it('refuses input SSM refuses: a missing Value, reserved names, no Type on create, a pattern mismatch', async () => {
    expect(await awsErrorOf(ssm.send(new PutParameterCommand({ Name: 'x' } as never)))).toMatchObject({
      code: 'ValidationException',
      message:
        "1 validation error detected: Value null at 'value' failed to satisfy constraint: Member must not be null",
    });
    expect(
      (await awsErrorOf(ssm.send(new PutParameterCommand({ Name: 'awsthing', Value: 'v', Type: 'String' })))).message,
    ).toBe('Parameter name: can\'t be prefixed with "aws" or "ssm" (case-insensitive).');
    expect((await awsErrorOf(ssm.send(new PutParameterCommand({ Name: 'untyped', Value: 'v' })))).message).toBe(
      'A parameter type is required when you create a parameter.',
    );
    expect(
      await awsErrorOf(
        ssm.send(new PutParameterCommand({ Name: 'digits', Value: 'abc', Type: 'String', AllowedPattern: '^\\d+$' })),
      ),
    ).toMatchObject({
      code: 'ParameterPatternMismatchException',
      message: 'Parameter value, cannot be validated against allowedPattern: ^\\d+$',
    });
  });

  it('shows a SecureString value only WithDecryption', async () => {
    await ssm.send(new PutParameterCommand({ Name: '/secret/pw', Value: 'hunter2', Type: 'SecureString' }));
    expect((await ssm.send(new GetParameterCommand({ Name: '/secret/pw' }))).Parameter!.Value).not.toBe('hunter2');
    expect(
      (await ssm.send(new GetParameterCommand({ Name: '/secret/pw', WithDecryption: true }))).Parameter!.Value,
    ).toBe('hunter2');
  });
});

describe('GetParameters, GetParametersByPath, DescribeParameters', () => {
  it('lists a path one level or recursively, page by page', async () => {
    for (const name of ['/tree/a', '/tree/b', '/tree/sub/c', '/treehouse'])
      await ssm.send(new PutParameterCommand({ Name: name, Value: name, Type: 'String' }));
    const one = await ssm.send(new GetParametersByPathCommand({ Path: '/tree' }));
    expect(one.Parameters!.map((p) => p.Name)).toEqual(['/tree/a', '/tree/b']);
    const first = await ssm.send(new GetParametersByPathCommand({ Path: '/tree/', Recursive: true, MaxResults: 2 }));
    const second = await ssm.send(
      new GetParametersByPathCommand({ Path: '/tree/', Recursive: true, MaxResults: 2, NextToken: first.NextToken }),
    );
    expect([...first.Parameters!, ...second.Parameters!].map((p) => p.Name)).toEqual([
      '/tree/a',
      '/tree/b',
      '/tree/sub/c',
    ]);
    expect(second.NextToken).toBeUndefined();
    const got = await ssm.send(new GetParametersCommand({ Names: ['/tree/a', '/tree/missing'] }));
    expect(got.Parameters!.map((p) => p.Value)).toEqual(['/tree/a']);
    expect(got.InvalidParameters).toEqual(['/tree/missing']);
  });

  it('describes parameters with filters and refuses an unknown filter option', async () => {
    const { Parameters } = await ssm.send(
      new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'BeginsWith', Values: ['/tree/'] }] }),
    );
    expect(Parameters!.map((p) => [p.Name, p.Type, p.Version, p.Tier])).toEqual([
      ['/tree/a', 'String', 1, 'Standard'],
      ['/tree/b', 'String', 1, 'Standard'],
      ['/tree/sub/c', 'String', 1, 'Standard'],
    ]);
    expect(
      await awsErrorOf(
        ssm.send(
          new DescribeParametersCommand({
            ParameterFilters: [{ Key: 'Type', Option: 'Sometimes', Values: ['String'] }],
          }),
        ),
      ),
    ).toMatchObject({
      code: 'InvalidFilterOption',
      message: 'The following filter option is not valid: Sometimes. Valid options include: [Equals, BeginsWith].',
    });
  });

  it('reads AWS public parameters through the same lookup as the template language', async () => {
    const { Parameter } = await ssm.send(
      new GetParameterCommand({ Name: '/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-6.1-x86_64' }),
    );
    expect(Parameter!.Value).toMatch(/^ami-[0-9a-f]{17}$/);
  });
});

describe('DeleteParameter and DeleteParameters', () => {
  it('deletes, then answers ParameterNotFound; DeleteParameters reports what it could not delete', async () => {
    await ssm.send(new PutParameterCommand({ Name: 'gone', Value: 'v', Type: 'String' }));
    await ssm.send(new DeleteParameterCommand({ Name: 'gone' }));
    expect((await awsErrorOf(ssm.send(new DeleteParameterCommand({ Name: 'gone' })))).code).toBe('ParameterNotFound');
    await ssm.send(new PutParameterCommand({ Name: 'gone2', Value: 'v', Type: 'String' }));
    expect(await ssm.send(new DeleteParametersCommand({ Names: ['gone2', 'never'] }))).toMatchObject({
      DeletedParameters: ['gone2'],
      InvalidParameters: ['never'],
    });
  });
});

describe('one world with CloudFormation', () => {
  it('a parameter a stack created is read through SSM, and one put through SSM resolves in a template', async () => {
    const template = `Parameters:\n  Fed:\n    Type: AWS::SSM::Parameter::Value<String>\n    Default: /from/ssm\nResources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: /from/stack\n      Type: String\n      Value: !Sub 'stack-\${Fed}'\nOutputs:\n  Dyn:\n    Value: '{{resolve:ssm:/from/ssm}}'\n`;
    await ssm.send(new PutParameterCommand({ Name: '/from/ssm', Value: 'put', Type: 'String' }));
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'ssm-world', TemplateBody: template }),
    );
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
    expect((await ssm.send(new GetParameterCommand({ Name: '/from/stack' }))).Parameter).toMatchObject({
      Value: 'stack-put',
      Version: 1,
    });
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: 'ssm-world' }));
    expect(Stacks![0].Outputs![0].OutputValue).toBe('put');
  });
});

describe('a parameter deleted through SSM', () => {
  it('leaves its stack deletable, as AWS treats a missing parameter as deleted', async () => {
    const template =
      'Resources:\n  P:\n    Type: AWS::SSM::Parameter\n    Properties:\n      Name: /doomed\n      Type: String\n      Value: v\n';
    const { StackId } = await server.client.send(
      new CreateStackCommand({ StackName: 'doomed', TemplateBody: template }),
    );
    await waitForStack(server.client, StackId!);
    await ssm.send(new DeleteParameterCommand({ Name: '/doomed' }));
    await server.client.send(new DeleteStackCommand({ StackName: 'doomed' }));
    expect((await waitForStack(server.client, StackId!)).StackStatus).toBe('DELETE_COMPLETE');
  });
});
