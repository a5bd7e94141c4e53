// The STS API (awsQuery): who the caller is, and credentials that keep their account (and identity) on later calls.
// https://docs.aws.amazon.com/STS/latest/APIReference/
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssumeRoleCommand, GetCallerIdentityCommand, GetSessionTokenCommand, STSClient } from '@aws-sdk/client-sts';
import { CreateStackCommand, DescribeStacksCommand, CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { awsErrorOf } from '../helpers/errors.js';

let server: TestServer;
const sts = (
  credentials = { accessKeyId: 'test', secretAccessKey: 'test' } as {
    accessKeyId: string;
    secretAccessKey: string;
    sessionToken?: string;
  },
) => new STSClient({ endpoint: server.endpoint, region: 'us-east-1', credentials });
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const ROLE = `Resources:\n  Role:\n    Type: AWS::IAM::Role\n    Properties:\n      RoleName: deployer\n      AssumeRolePolicyDocument: {Version: '2012-10-17', Statement: []}\n`;

async function createRole(account: string) {
  const client = new CloudFormationClient({
    endpoint: server.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: account, secretAccessKey: 'x' },
  });
  const { StackId } = await client.send(
    new CreateStackCommand({ StackName: 'role', TemplateBody: ROLE, Capabilities: ['CAPABILITY_NAMED_IAM'] }),
  );
  expect((await waitForStack(client, StackId!)).StackStatus).toBe('CREATE_COMPLETE');
}

describe('GetCallerIdentity', () => {
  it('answers the root of the default account, or of the 12-digit access key id', async () => {
    expect(await sts().send(new GetCallerIdentityCommand({}))).toMatchObject({
      Account: '000000000000',
      Arn: 'arn:aws:iam::000000000000:root',
      UserId: '000000000000',
    });
    expect(
      (await sts({ accessKeyId: '111122223333', secretAccessKey: 'x' }).send(new GetCallerIdentityCommand({}))).Account,
    ).toBe('111122223333');
  });
});

describe('AssumeRole', () => {
  it("hands out credentials that land later calls in the role's account, as the assumed role", async () => {
    await createRole('444455556666');
    const { Credentials, AssumedRoleUser } = await sts().send(
      new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::444455556666:role/deployer', RoleSessionName: 'cdk' }),
    );
    expect(Credentials!.AccessKeyId).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(Credentials!.Expiration!.getTime()).toBeGreaterThan(Date.now());
    expect(AssumedRoleUser!.Arn).toBe('arn:aws:sts::444455556666:assumed-role/deployer/cdk');
    const assumed = {
      accessKeyId: Credentials!.AccessKeyId!,
      secretAccessKey: Credentials!.SecretAccessKey!,
      sessionToken: Credentials!.SessionToken!,
    };
    expect(await sts(assumed).send(new GetCallerIdentityCommand({}))).toMatchObject({
      Account: '444455556666',
      Arn: 'arn:aws:sts::444455556666:assumed-role/deployer/cdk',
      UserId: AssumedRoleUser!.AssumedRoleId,
    });
    const cfn = new CloudFormationClient({ endpoint: server.endpoint, region: 'us-east-1', credentials: assumed });
    expect((await cfn.send(new DescribeStacksCommand({ StackName: 'role' }))).Stacks![0].StackId).toContain(
      ':444455556666:stack/role/',
    );
  });

  it('refuses a role the account does not have with AccessDenied, and bad input with ValidationError', async () => {
    expect(
      await awsErrorOf(
        sts().send(new AssumeRoleCommand({ RoleArn: 'arn:aws:iam::000000000000:role/nobody', RoleSessionName: 's1' })),
      ),
    ).toEqual({
      code: 'AccessDenied',
      status: 403,
      message:
        'User: arn:aws:iam::000000000000:root is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::000000000000:role/nobody',
    });
    expect(
      await awsErrorOf(
        sts().send(
          new AssumeRoleCommand({
            RoleArn: 'arn:aws:iam::444455556666:role/deployer',
            RoleSessionName: 'x',
            DurationSeconds: 60,
          }),
        ),
      ),
    ).toMatchObject({
      code: 'ValidationError',
      status: 400,
      message:
        "2 validation errors detected: Value 'x' at 'roleSessionName' failed to satisfy constraint: Member must have length greater than or equal to 2; Value '60' at 'durationSeconds' failed to satisfy constraint: Member must have value greater than or equal to 900",
    });
  });
});

describe('GetSessionToken', () => {
  it("keeps the caller's account and identity, and refuses session credentials", async () => {
    const { Credentials } = await sts({ accessKeyId: '777788889999', secretAccessKey: 'x' }).send(
      new GetSessionTokenCommand({}),
    );
    const session = {
      accessKeyId: Credentials!.AccessKeyId!,
      secretAccessKey: Credentials!.SecretAccessKey!,
      sessionToken: Credentials!.SessionToken!,
    };
    expect(await sts(session).send(new GetCallerIdentityCommand({}))).toMatchObject({
      Account: '777788889999',
      Arn: 'arn:aws:iam::777788889999:root',
    });
    expect(await awsErrorOf(sts(session).send(new GetSessionTokenCommand({})))).toMatchObject({
      code: 'AccessDenied',
      message: 'Cannot call GetSessionToken with session credentials',
    });
  });
});
