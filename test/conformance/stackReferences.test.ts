// Conformance: Fn::ImportValue (exports of the same account and region) and Fn::GetStackOutput (any output of a
// stack, across regions and, through the account of RoleArn, accounts of the simulated world).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { startServer, type TestServer } from '../helpers/server.js';
import { deploy, destroy, withOutputs } from './harness.js';

// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-importvalue.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/intrinsic-function-reference-getstackoutput.html

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function clientFor(region: string, accessKeyId = 'test') {
  return new CloudFormationClient({
    endpoint: server.endpoint,
    region,
    credentials: { accessKeyId, secretAccessKey: 'test' },
  });
}

const producer = (value: string, exportName?: string) => ({
  Resources: { Topic: { Type: 'AWS::SNS::Topic' } },
  Outputs: { Shared: { Value: value, ...(exportName ? { Export: { Name: exportName } } : {}) } },
});

describe('Fn::ImportValue', () => {
  it('CREATE_COMPLETE with the exported value', async () => {
    const a = await deploy(server.client, producer('from-a', 'shared-export'), {}, { stackName: 'import-producer' });
    expect(a.status).toBe('CREATE_COMPLETE');
    const b = await deploy(
      server.client,
      withOutputs(
        { O: { 'Fn::ImportValue': 'shared-export' }, S: { 'Fn::ImportValue': { 'Fn::Sub': 'shared-${Kind}' } } },
        { Parameters: { Kind: { Type: 'String', Default: 'export' } } },
      ),
    );
    expect(b.status).toBe('CREATE_COMPLETE');
    expect(b.outputs).toEqual({ O: 'from-a', S: 'from-a' });
    await destroy(server.client, b.stackId!);
    await destroy(server.client, a.stackId!);
  });

  it('ROLLBACK_COMPLETE when no export has the name (the call succeeds)', async () => {
    const r = await deploy(server.client, {
      Resources: {
        P: {
          Type: 'AWS::SSM::Parameter',
          Properties: { Type: 'String', Value: { 'Fn::ImportValue': 'no-such-export' } },
        },
      },
    });
    expect(r.error).toBeUndefined();
    expect(r.status).toBe('ROLLBACK_COMPLETE');
    expect(r.reason).toContain('No export named no-such-export');
  });
});

describe('Fn::GetStackOutput', () => {
  it('CREATE_COMPLETE with an output that is not exported, same region', async () => {
    const a = await deploy(server.client, producer('plain-output'), {}, { stackName: 'gso-producer' });
    const b = await deploy(
      server.client,
      withOutputs({ O: { 'Fn::GetStackOutput': { StackName: 'gso-producer', OutputName: 'Shared' } } }),
    );
    expect(b.status, b.reason).toBe('CREATE_COMPLETE');
    expect(b.outputs.O).toBe('plain-output');
    await destroy(server.client, b.stackId!);
    await destroy(server.client, a.stackId!);
  });

  it('reads a stack of another region through Region', async () => {
    const west = clientFor('eu-west-1');
    const a = await deploy(west, producer('in-eu-west-1'), {}, { stackName: 'gso-west' });
    expect(a.status).toBe('CREATE_COMPLETE');
    const b = await deploy(
      server.client,
      withOutputs({
        O: { 'Fn::GetStackOutput': { StackName: 'gso-west', OutputName: 'Shared', Region: 'eu-west-1' } },
      }),
    );
    expect(b.outputs.O).toBe('in-eu-west-1');
  });

  it('reads a stack of another account through the account of RoleArn', async () => {
    const other = clientFor('us-east-1', '111111111111');
    const a = await deploy(other, producer('in-111111111111'), {}, { stackName: 'gso-account' });
    expect(a.status).toBe('CREATE_COMPLETE');
    const b = await deploy(
      server.client,
      withOutputs({
        O: {
          'Fn::GetStackOutput': {
            StackName: 'gso-account',
            OutputName: 'Shared',
            RoleArn: 'arn:aws:iam::111111111111:role/reader',
          },
        },
      }),
    );
    expect(b.outputs.O).toBe('in-111111111111');
  });

  it('fails the stack when the stack or the output does not exist', async () => {
    const r = await deploy(
      server.client,
      withOutputs({ O: { 'Fn::GetStackOutput': { StackName: 'gso-none', OutputName: 'X' } } }),
    );
    expect(r.status).toBe('ROLLBACK_COMPLETE');
    expect(r.reason).toContain('Stack with id gso-none does not exist');
  });

  it('refuses an argument that is not the documented object at the call', async () => {
    const r = await deploy(server.client, withOutputs({ O: { 'Fn::GetStackOutput': ['gso-producer', 'Shared'] } }));
    expect(r.error?.message).toMatch(
      /^Template error: Fn::GetStackOutput requires an object with StackName and OutputName/,
    );
  });
});

describe('pseudo parameters by partition', () => {
  it.each([
    ['cn-north-1', 'aws-cn', 'amazonaws.com.cn'],
    ['us-gov-west-1', 'aws-us-gov', 'amazonaws.com'],
    ['eu-central-1', 'aws', 'amazonaws.com'],
  ])('%s: AWS::Partition %s, AWS::URLSuffix %s', async (region, partition, suffix) => {
    const r = await deploy(
      clientFor(region),
      withOutputs({ P: { Ref: 'AWS::Partition' }, S: { Ref: 'AWS::URLSuffix' }, R: { Ref: 'AWS::Region' } }),
    );
    expect(r.outputs).toEqual({ P: partition, S: suffix, R: region });
  });
});
