// Shared helpers for the simulated-account tests: create/delete through the SDK, the control API over fetch.
import { allEvents } from '../helpers/events.js';
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourceCommand,
  type CloudFormationClient,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import { waitForStack, type TestServer } from '../helpers/server.js';

export async function createStack(server: TestServer, name: string, body: string, extra: Record<string, unknown> = {}) {
  const { StackId } = await server.client.send(
    new CreateStackCommand({ StackName: name, TemplateBody: body, ...extra }),
  );
  return { id: StackId!, stack: await waitForStack(server.client, StackId!) };
}

export async function deleteStack(server: TestServer, id: string) {
  await server.client.send(new DeleteStackCommand({ StackName: id }));
  return waitForStack(server.client, id);
}

/** Every event of a stack, oldest first. */
export const eventsOf = (client: CloudFormationClient, id: string): Promise<StackEvent[]> => allEvents(client, id);

/** The events of one logical resource, oldest first. */
export async function resourceEvents(client: CloudFormationClient, id: string, logicalId: string) {
  return (await eventsOf(client, id)).filter((e) => e.LogicalResourceId === logicalId);
}

/** "STATUS reason" lines of a resource's events, oldest first. */
export async function eventLines(client: CloudFormationClient, id: string, logicalId: string) {
  return (await resourceEvents(client, id, logicalId)).map((e) =>
    `${e.ResourceStatus} ${e.ResourceStatusReason ?? ''}`.trim(),
  );
}

/** Polls until the stack's resource has a physical id (the action has reached the provider), and returns it. */
export async function physicalIdOnceCreated(
  client: CloudFormationClient,
  stackId: string,
  logicalId: string,
): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    try {
      const { StackResourceDetail } = await client.send(
        new DescribeStackResourceCommand({ StackName: stackId, LogicalResourceId: logicalId }),
      );
      if (StackResourceDetail?.PhysicalResourceId) return StackResourceDetail.PhysicalResourceId;
    } catch {
      /* not created yet */
    }
    await sleep(5);
  }
  throw new Error(`${logicalId} never got a physical id`);
}

export interface ControlResponse<T = any> {
  status: number;
  body: T;
}

/** Calls the control API: `control(server, 'PATCH', '/world/x', { dataItems: 3 })`. */
export async function control<T = any>(
  server: TestServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<ControlResponse<T>> {
  const res = await fetch(`${server.endpoint}/_cfn-local${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** The world row of a stack's resource `logicalId`. */
export async function worldRow(server: TestServer, type: string, logicalId: string, stackId?: string) {
  const { body } = await control(server, 'GET', `/world?type=${encodeURIComponent(type)}`);
  return (body.resources as any[]).find((r) => r.logicalId === logicalId && (!stackId || r.stackId === stackId));
}

/** Only between polls: a test never sleeps and then asserts (CONTRIBUTING.md, Tests that wait). */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
