// Conformance harness: deploys a small template through the SDK against a live server and reports what AWS
// would show (final status, outputs, the first failure reason) or the synchronous error of the call.
import {
  type Capability,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  type CloudFormationClient,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';
import { TEST_ENDPOINT } from '../helpers/endpoint.js';

// against a shared endpoint (CFN_LOCAL_TEST_ENDPOINT) every file and run numbers its stacks apart, still `conf-N`
let counter = TEST_ENDPOINT ? Math.floor(Math.random() * 1e9) * 1000 : 0;

export interface DeployResult {
  /** Set when the CreateStack call itself was refused. */
  error?: { name: string; message: string };
  status?: string;
  outputs: Record<string, string>;
  /** The first *_FAILED resource reason, else the stack's status reason. */
  reason?: string;
  stackId?: string;
}

export async function deploy(
  client: CloudFormationClient,
  template: unknown,
  parameters: Record<string, string> = {},
  options: { stackName?: string; capabilities?: Capability[] } = {},
): Promise<DeployResult> {
  const body = typeof template === 'string' ? template : JSON.stringify(template);
  const Parameters: Parameter[] = Object.entries(parameters).map(([ParameterKey, ParameterValue]) => ({
    ParameterKey,
    ParameterValue,
  }));
  let stackId: string;
  try {
    const out = await client.send(
      new CreateStackCommand({
        StackName: options.stackName ?? `conf-${++counter}`,
        TemplateBody: body,
        Parameters,
        Capabilities: options.capabilities ?? ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      }),
    );
    stackId = out.StackId!;
  } catch (err) {
    const e = err as { name: string; message: string };
    return { error: { name: e.name, message: e.message }, outputs: {} };
  }
  const stack = await waitForStack(client, stackId);
  const outputs = Object.fromEntries((stack.Outputs ?? []).map((o) => [o.OutputKey!, o.OutputValue!]));
  let reason = stack.StackStatusReason;
  if (!stack.StackStatus!.endsWith('COMPLETE') || stack.StackStatus!.startsWith('ROLLBACK')) {
    const events = (await client.send(new DescribeStackEventsCommand({ StackName: stackId }))).StackEvents ?? [];
    const failed = [...events]
      .reverse()
      .find((e) => e.ResourceStatus?.endsWith('_FAILED') && e.ResourceType !== 'AWS::CloudFormation::Stack');
    const rolling = [...events].reverse().find((e) => e.ResourceStatus === 'ROLLBACK_IN_PROGRESS');
    reason = failed?.ResourceStatusReason ?? rolling?.ResourceStatusReason ?? reason;
  }
  return { status: stack.StackStatus, outputs, reason, stackId };
}

export async function destroy(client: CloudFormationClient, stackId: string): Promise<string> {
  await client.send(new DeleteStackCommand({ StackName: stackId }));
  return (await waitForStack(client, stackId)).StackStatus!;
}

/** A one-resource template whose Outputs are the values under test. */
export function withOutputs(
  outputs: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    Resources: { Topic: { Type: 'AWS::SNS::Topic' } },
    ...extra,
    Outputs: Object.fromEntries(Object.entries(outputs).map(([k, v]) => [k, { Value: v }])),
  };
}

/** One conformance case: a small template and what AWS resolves it to, or the error AWS gives. */
export interface Case {
  name: string;
  /** The AWS documentation page (or recorded behaviour) the expectation comes from. */
  source: string;
  template: unknown;
  parameters?: Record<string, string>;
  /** Outputs AWS shows after CREATE_COMPLETE. */
  outputs?: Record<string, string | RegExp>;
  /** The synchronous ValidationError (or other code) of CreateStack. */
  error?: string | RegExp;
  errorCode?: string;
  /** The stack fails at execution: the failed resource's (or stack's) reason. */
  failed?: string | RegExp;
}

export async function check(client: CloudFormationClient, c: Case): Promise<void> {
  const r = await deploy(client, c.template, c.parameters);
  const { expect } = await import('vitest');
  if (c.error !== undefined) {
    expect(r.error, `expected CreateStack to be refused, got ${r.status} ${r.reason ?? ''}`).toBeDefined();
    expect(r.error!.name).toBe(c.errorCode ?? 'ValidationError');
    if (typeof c.error === 'string') expect(r.error!.message).toBe(c.error);
    else expect(r.error!.message).toMatch(c.error);
    return;
  }
  expect(r.error, r.error?.message).toBeUndefined();
  if (c.failed !== undefined) {
    expect(r.status).toMatch(/ROLLBACK_COMPLETE|CREATE_FAILED/);
    if (typeof c.failed === 'string') expect(r.reason).toContain(c.failed);
    else expect(r.reason).toMatch(c.failed);
    return;
  }
  expect(r.status, r.reason).toBe('CREATE_COMPLETE');
  const want = Object.fromEntries(
    Object.entries(c.outputs ?? {}).map(([k, v]) => [k, typeof v === 'string' ? v : expect.stringMatching(v)]),
  );
  expect(r.outputs).toEqual(want);
  await destroy(client, r.stackId!);
}
