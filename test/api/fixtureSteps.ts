// The steps a fixture template goes through besides create and delete: the update its .expect.json declares
// (new parameter values on the same template, as a user redeploys), and the CreationPolicy signals an instance
// would send while the stack is being created.
import {
  DescribeStackEventsCommand,
  SignalResourceCommand,
  UpdateStackCommand,
  type CloudFormationClient,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';

export interface FixtureUpdate {
  /** New values; every other parameter keeps its previous value. */
  parameters?: Record<string, string>;
  /** Parameter keys the template declares (so the others are sent as UsePreviousValue). */
  declared?: string[];
}

export interface FixtureSignal {
  logicalId: string;
  count: number;
}

/** UpdateStack with the previous template and the given values; returns the stack as it settles. */
export async function updateFixture(client: CloudFormationClient, stackId: string, update: FixtureUpdate) {
  const given = update.parameters ?? {};
  const Parameters: Parameter[] = [
    ...Object.entries(given).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue })),
    ...(update.declared ?? [])
      .filter((k) => !(k in given))
      .map((ParameterKey) => ({ ParameterKey, UsePreviousValue: true })),
  ];
  await client.send(
    new UpdateStackCommand({
      StackName: stackId,
      UsePreviousTemplate: true,
      Parameters,
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
    }),
  );
  return waitForStack(client, stackId);
}

/** Waits until the resource has been initiated, then sends its SUCCESS signals as cfn-signal does. */
export async function sendSignals(
  client: CloudFormationClient,
  stackName: string,
  signal: FixtureSignal,
): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    // the stack may not exist yet: CreateStack is sent alongside
    const events = await client.send(new DescribeStackEventsCommand({ StackName: stackName })).then(
      (r) => r.StackEvents ?? [],
      () => [],
    );
    if (
      events.some(
        (e) => e.LogicalResourceId === signal.logicalId && e.ResourceStatusReason === 'Resource creation Initiated',
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 5));
  }
  for (let n = 0; n < signal.count; n++) {
    await client.send(
      new SignalResourceCommand({
        StackName: stackName,
        LogicalResourceId: signal.logicalId,
        UniqueId: `i-0${n}abcdef012345678`,
        Status: 'SUCCESS',
      }),
    );
  }
}
