// Reads a stack's whole event history oldest first, in the compact forms lifecycle tests compare against.
import { DescribeStackEventsCommand, type CloudFormationClient, type StackEvent } from '@aws-sdk/client-cloudformation';

export async function allEvents(client: CloudFormationClient, stack: string): Promise<StackEvent[]> {
  const events: StackEvent[] = [];
  let NextToken: string | undefined;
  do {
    const page = await client.send(new DescribeStackEventsCommand({ StackName: stack, NextToken }));
    events.push(...page.StackEvents!);
    NextToken = page.NextToken;
  } while (NextToken);
  return events.reverse();
}

/** `Logical STATUS` lines, oldest first, optionally with the reason (`Logical STATUS: reason`). */
export async function eventLines(client: CloudFormationClient, stack: string, withReasons = false): Promise<string[]> {
  return (await allEvents(client, stack)).map((e) => {
    const line = `${e.LogicalResourceId} ${e.ResourceStatus}`;
    return withReasons && e.ResourceStatusReason ? `${line}: ${e.ResourceStatusReason}` : line;
  });
}

/** The lines of one resource only. */
export async function resourceLines(
  client: CloudFormationClient,
  stack: string,
  logicalId: string,
  withReasons = false,
) {
  return (await eventLines(client, stack, withReasons)).filter((l) => l.startsWith(`${logicalId} `));
}
