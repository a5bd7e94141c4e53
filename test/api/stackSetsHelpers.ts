// What the stack set tests share: clients per account and region, and waiting for an operation to end.
import {
  CloudFormationClient,
  DescribeStackSetOperationCommand,
  DescribeStacksCommand,
  ListStackInstancesCommand,
  ListStackSetOperationResultsCommand,
  type Stack,
  type StackInstanceSummary,
  type StackSetOperation,
  type StackSetOperationResultSummary,
} from '@aws-sdk/client-cloudformation';
import type { TestServer } from '../helpers/server.js';

export const ADMIN = '111111111111';
export const A = '222222222222';
export const B = '333333333333';
export const C = '444444444444';

/** A client signing as `account` (its 12-digit access key id) in `region`. */
export function clientFor(server: TestServer, account: string, region = 'us-east-1'): CloudFormationClient {
  return new CloudFormationClient({
    endpoint: server.endpoint,
    region,
    credentials: { accessKeyId: account, secretAccessKey: 'test' },
  });
}

const ENDED = new Set(['SUCCEEDED', 'FAILED', 'STOPPED']);

/** Polls DescribeStackSetOperation until the operation has ended. */
export async function waitForOperation(
  cfn: CloudFormationClient,
  StackSetName: string,
  OperationId: string,
  timeoutMs = 20_000,
): Promise<StackSetOperation> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const { StackSetOperation: op } = await cfn.send(
      new DescribeStackSetOperationCommand({ StackSetName, OperationId }),
    );
    if (ENDED.has(op!.Status!)) return op!;
    if (Date.now() > end) throw new Error(`operation ${OperationId} still ${op!.Status}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function resultsOf(
  cfn: CloudFormationClient,
  StackSetName: string,
  OperationId: string,
): Promise<StackSetOperationResultSummary[]> {
  const { Summaries } = await cfn.send(new ListStackSetOperationResultsCommand({ StackSetName, OperationId }));
  return Summaries!;
}

export async function instancesOf(cfn: CloudFormationClient, StackSetName: string): Promise<StackInstanceSummary[]> {
  const { Summaries } = await cfn.send(new ListStackInstancesCommand({ StackSetName }));
  return Summaries!;
}

/** The instance's stack, read in its own account and region. */
export async function stackOf(server: TestServer, instance: StackInstanceSummary): Promise<Stack> {
  const cfn = clientFor(server, instance.Account!, instance.Region!);
  const { Stacks } = await cfn.send(new DescribeStacksCommand({ StackName: instance.StackId! }));
  return Stacks![0];
}

/** `account/region → value` of a list, sorted, for comparisons that do not depend on order. */
export const byTarget = <T extends { Account?: string; Region?: string }>(items: T[], value: (t: T) => unknown) =>
  Object.fromEntries(
    items.map((i) => [`${i.Account}/${i.Region}`, value(i)] as const).sort(([a], [b]) => a.localeCompare(b)),
  );
