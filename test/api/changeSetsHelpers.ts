// Shared steps for the change-set tests: wait for a change set to settle, deploy and update through change sets.
import {
  CreateChangeSetCommand,
  DescribeChangeSetCommand,
  ExecuteChangeSetCommand,
  type CloudFormationClient,
  type CreateChangeSetCommandInput,
  type DescribeChangeSetCommandOutput,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import { waitForStack } from '../helpers/server.js';

/** Polls DescribeChangeSet until the change set leaves CREATE_PENDING / CREATE_IN_PROGRESS (what SDK waiters do). */
export async function waitForChangeSet(
  client: CloudFormationClient,
  id: string,
  extra: { IncludePropertyValues?: boolean } = {},
): Promise<DescribeChangeSetCommandOutput> {
  for (let i = 0; i < 2000; i++) {
    const out = await client.send(new DescribeChangeSetCommand({ ChangeSetName: id, ...extra }));
    if (out.Status !== 'CREATE_PENDING' && out.Status !== 'CREATE_IN_PROGRESS') return out;
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`change set ${id} never settled`);
}

export const params = (values: Record<string, string>): Parameter[] =>
  Object.entries(values).map(([ParameterKey, ParameterValue]) => ({ ParameterKey, ParameterValue }));

let counter = 0;

/** CreateChangeSet, waits for it, and returns its ARN and description. */
export async function changeSet(
  client: CloudFormationClient,
  StackName: string,
  template: unknown,
  extra: Partial<CreateChangeSetCommandInput> = {},
) {
  const { Id, StackId } = await client.send(
    new CreateChangeSetCommand({
      StackName,
      ChangeSetName: `cs-${++counter}`,
      ChangeSetType: 'UPDATE',
      TemplateBody: typeof template === 'string' ? template : JSON.stringify(template),
      ...extra,
    }),
  );
  return { id: Id!, stackId: StackId!, described: await waitForChangeSet(client, Id!) };
}

/** Creates a stack through a CREATE change set and executes it to CREATE_COMPLETE. */
export async function deploy(
  client: CloudFormationClient,
  StackName: string,
  template: unknown,
  extra: Partial<CreateChangeSetCommandInput> = {},
) {
  const cs = await changeSet(client, StackName, template, { ChangeSetType: 'CREATE', ...extra });
  await client.send(new ExecuteChangeSetCommand({ ChangeSetName: cs.id }));
  const stack = await waitForStack(client, cs.stackId);
  return { ...cs, stack };
}

/** Executes an UPDATE change set and waits for the stack to settle. */
export async function execute(client: CloudFormationClient, id: string, stackId: string) {
  await client.send(new ExecuteChangeSetCommand({ ChangeSetName: id }));
  return waitForStack(client, stackId);
}
