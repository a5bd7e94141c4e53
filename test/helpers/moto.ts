// Starts moto_server (moto 5.2, preinstalled on CI machines: .ci/run checks) on a free loopback port for one test
// file, as a user runs it beside cfn-local for `--backend <url>`.
import { MotoBackend } from '../../server/backend/moto.js';

export interface TestMoto {
  url: string;
  moto: MotoBackend;
  close(): Promise<void>;
}

const quiet = { info() {}, warn() {} };

export async function startMoto(account = '000000000000'): Promise<TestMoto> {
  const moto = new MotoBackend({ account, log: quiet });
  await moto.start();
  const url = await moto.url();
  return { url, moto, close: () => moto.close() };
}

/** An SDK v3 client's settings for an endpoint of the test account (cfn-local's port or moto's). */
export const clientConfig = (endpoint: string, region = 'us-east-1') => ({
  endpoint,
  region,
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
});

/** A Node.js function with its execution role, as the mapping tests deploy it: the handler's code and environment. */
export const lambdaRoleAndFunction = (code: string, variables: Record<string, unknown>) => ({
  Role: {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Statement: [{ Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' }],
      },
    },
  },
  Fn: {
    Type: 'AWS::Lambda::Function',
    Properties: {
      Runtime: 'nodejs20.x',
      Handler: 'index.handler',
      Role: { 'Fn::GetAtt': ['Role', 'Arn'] },
      Code: { ZipFile: code },
      Environment: { Variables: variables },
    },
  },
});
