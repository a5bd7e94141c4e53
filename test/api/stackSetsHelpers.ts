// What the stack set tests share: clients per account and region, and waiting for an operation to end.
import {
  CloudFormationClient,
  DescribeStackResourceCommand,
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

/** A template whose stack waits on a wait condition: its instance stays RUNNING until the test signals it. */
export const WAITING_TEMPLATE = `Resources:
  Handle: { Type: AWS::CloudFormation::WaitConditionHandle }
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties: { Handle: !Ref Handle, Timeout: '300', Count: 1 }
`;

/**
 * The wait condition handles (their presigned URLs) of the operation's RUNNING results whose stacks have made them,
 * by `account/region`: what a test signals to let those accounts end.
 */
export async function runningHandles(
  server: TestServer,
  cfn: CloudFormationClient,
  StackSetName: string,
  OperationId: string,
): Promise<Map<string, string>> {
  const running = (await resultsOf(cfn, StackSetName, OperationId)).filter((r) => r.Status === 'RUNNING');
  const instances = await instancesOf(cfn, StackSetName);
  const handles = new Map<string, string>();
  for (const r of running) {
    const instance = instances.find((i) => i.Account === r.Account && i.Region === r.Region && i.StackId);
    if (!instance) continue;
    const { StackResourceDetail: handle } = await clientFor(server, r.Account!, r.Region)
      .send(new DescribeStackResourceCommand({ StackName: instance.StackId, LogicalResourceId: 'Handle' }))
      .catch(() => ({ StackResourceDetail: undefined }));
    if (handle?.ResourceStatus === 'CREATE_COMPLETE' && handle.PhysicalResourceId)
      handles.set(`${r.Account}/${r.Region}`, handle.PhysicalResourceId);
  }
  return handles;
}

/** Polls until `count` accounts are RUNNING with their handles made (the state a concurrency test looks at). */
export async function untilRunning(
  server: TestServer,
  cfn: CloudFormationClient,
  StackSetName: string,
  OperationId: string,
  count: number,
): Promise<Map<string, string>> {
  for (;;) {
    const handles = await runningHandles(server, cfn, StackSetName, OperationId);
    if (handles.size >= count) return handles;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Signals a wait condition handle SUCCESS, as cfn-signal does. */
export async function signalHandle(url: string): Promise<void> {
  const res = await fetch(url, {
    method: 'PUT',
    body: JSON.stringify({ Status: 'SUCCESS', Reason: 'done', UniqueId: 'one', Data: 'ok' }),
  });
  if (res.status !== 200) throw new Error(`signal answered ${res.status}: ${await res.text()}`);
}
