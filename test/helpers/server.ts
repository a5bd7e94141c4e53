// Starts cfn-local on a random port for one test file and hands out an AWS SDK v3 client pointed at it.
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { buildApp, type App, type AppOptions } from '../../server/app.js';
import { TEST_ENDPOINT } from './endpoint.js';

export interface TestServer {
  app: App;
  endpoint: string;
  client: CloudFormationClient;
  close(): Promise<void>;
}

/**
 * Against CFN_LOCAL_TEST_ENDPOINT (test/helpers/endpoint.ts) the client targets that endpoint with the usual AWS
 * credentials and region; there is no app (the files that read it are left out of such a run).
 */
function remoteServer(endpoint: string): TestServer {
  const client = new CloudFormationClient({ endpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  return {
    get app(): App {
      throw new Error(`cfn-local's app is not reachable at CFN_LOCAL_TEST_ENDPOINT (${endpoint})`);
    },
    endpoint,
    client,
    close: async () => undefined,
  };
}

export async function startServer(options: AppOptions = {}): Promise<TestServer> {
  if (TEST_ENDPOINT) return remoteServer(TEST_ENDPOINT);
  const app = buildApp({ db: ':memory:', ...options });
  const endpoint = await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const client = new CloudFormationClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return { app, endpoint, client, close: () => app.close() };
}

const SETTLED = /(_COMPLETE|_FAILED)$/;

/** Polls DescribeStacks until the stack leaves *_IN_PROGRESS (by id, so deleted stacks resolve too). */
export async function waitForStack(client: CloudFormationClient, stackId: string, timeoutMs = 10_000): Promise<Stack> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: stackId }));
    const stack = Stacks![0];
    if (SETTLED.test(stack.StackStatus!) && !stack.StackStatus!.endsWith('_IN_PROGRESS')) return stack;
    if (Date.now() > end) throw new Error(`stack ${stackId} still ${stack.StackStatus}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
