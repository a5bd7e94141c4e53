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

/**
 * Polls DescribeStackEvents until an event matches, and returns it (bounded: a wait that never comes fails the test
 * rather than hanging it). What a test waits for instead of sleeping.
 */
export async function waitForEvent(
  client: CloudFormationClient,
  stack: string,
  matches: (e: StackEvent) => boolean,
  timeoutMs = 10_000,
): Promise<StackEvent> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = (await allEvents(client, stack)).find(matches);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no matching event of ${stack} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
