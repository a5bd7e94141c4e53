// Nested stacks' events in causal order across the tree, as AWS's are: the parent's CREATE_IN_PROGRESS for the
// nested resource, then every event of the child (and of its own children), then the parent's CREATE_COMPLETE or
// CREATE_FAILED for it; the same for the rollback's deletes. Tools that merge a tree's events by time (the CDK's
// deploy display) depend on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, type StackEvent } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { failing, nested, param, putTemplate } from './nestedHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function create(name: string, body: string) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  return waitForStack(server.client, StackId!);
}

const time = (e: StackEvent) => e.Timestamp!.getTime();

/** The events of a stack and of every stack nested under it, each stack's oldest first. */
async function treeEvents(stackId: string): Promise<StackEvent[]> {
  const own = await allEvents(server.client, stackId);
  const children = new Set(
    own
      .filter((e) => e.ResourceType === 'AWS::CloudFormation::Stack' && e.PhysicalResourceId !== e.StackId)
      .flatMap((e) => (e.PhysicalResourceId ? [e.PhysicalResourceId] : [])),
  );
  return [...own, ...(await Promise.all([...children].map(treeEvents))).flat()];
}

const ENDS_CREATE = new Set(['CREATE_COMPLETE', 'CREATE_FAILED', 'ROLLBACK_COMPLETE', 'ROLLBACK_FAILED']);

/** A nested resource's action (CREATE or DELETE) brackets, by time, every event of its child's operation. */
function expectBracketed(events: StackEvent[], parentId: string, logicalId: string, action: 'CREATE' | 'DELETE') {
  const ofResource = events.filter(
    (e) => e.StackId === parentId && e.LogicalResourceId === logicalId && e.ResourceStatus!.startsWith(action),
  );
  const childId = ofResource.find((e) => e.PhysicalResourceId)!.PhysicalResourceId!;
  const start = time(ofResource.find((e) => e.ResourceStatus === `${action}_IN_PROGRESS`)!);
  const end = time(ofResource.find((e) => !e.ResourceStatus!.endsWith('_IN_PROGRESS'))!);
  const child = events.filter((e) => e.StackId === childId);
  const isStackEvent = (e: StackEvent) => e.PhysicalResourceId === childId;
  const createEnd = child.findIndex((e) => isStackEvent(e) && ENDS_CREATE.has(e.ResourceStatus!));
  const deleteStart = child.findIndex((e) => isStackEvent(e) && e.ResourceStatus === 'DELETE_IN_PROGRESS');
  const ofAction = action === 'CREATE' ? child.slice(0, createEnd + 1) : child.slice(deleteStart);
  expect(action === 'CREATE' ? createEnd : deleteStart).toBeGreaterThanOrEqual(0);
  for (const e of ofAction) {
    const what = `${e.LogicalResourceId} ${e.ResourceStatus} (${e.Timestamp!.toISOString()})`;
    expect(time(e), `${what} after ${logicalId} ${action}_IN_PROGRESS`).toBeGreaterThan(start);
    expect(time(e), `${what} before the end of ${logicalId}'s ${action}`).toBeLessThan(end);
  }
}

describe('events of a tree of nested stacks', () => {
  it('a child created in a three-level tree has all its events between its parent resource start and completion', async () => {
    const leaf = await putTemplate(server, `Resources:\n${param('Leaf')}${param('Leaf2')}`);
    const middle = await putTemplate(server, `Resources:\n${param('Sibling')}${nested('Grandchild', leaf)}`);
    const root = await create('order-ok', `Resources:\n${param('First')}${nested('Middle', middle)}${param('Last')}`);
    expect(root.StackStatus).toBe('CREATE_COMPLETE');
    const events = await treeEvents(root.StackId!);
    expectBracketed(events, root.StackId!, 'Middle', 'CREATE');
    const middleId = events.find((e) => e.LogicalResourceId === 'Middle' && e.PhysicalResourceId)!.PhysicalResourceId!;
    expectBracketed(events, middleId, 'Grandchild', 'CREATE');
    // no two events of the tree share a time, so a merged display has one order
    expect(new Set(events.map(time)).size).toBe(events.length);
  });

  it("a failing child's CREATE_FAILED and its rollback come before the parent's CREATE_FAILED; its delete inside the parent's", async () => {
    const url = await putTemplate(
      server,
      `Resources:\n${param('Good')}${param('Bad', '    DependsOn: Good\n' + failing('Create'))}`,
    );
    const root = await create('order-fail', `Resources:\n${nested('Child', url)}`);
    expect(root.StackStatus).toBe('ROLLBACK_COMPLETE');
    const events = await treeEvents(root.StackId!);
    expectBracketed(events, root.StackId!, 'Child', 'CREATE');
    expectBracketed(events, root.StackId!, 'Child', 'DELETE');
    const parentFailed = events.find((e) => e.LogicalResourceId === 'Child' && e.ResourceStatus === 'CREATE_FAILED')!;
    const childFailed = events.find((e) => e.LogicalResourceId === 'Bad' && e.ResourceStatus === 'CREATE_FAILED')!;
    expect(time(childFailed)).toBeLessThan(time(parentFailed));
    // the child's resources start after the parent's "Resource creation Initiated", from which the CDK follows it
    const initiated = events.find(
      (e) => e.LogicalResourceId === 'Child' && e.ResourceStatusReason === 'Resource creation Initiated',
    )!;
    const childStart = events.find(
      (e) => e.StackId === initiated.PhysicalResourceId && e.PhysicalResourceId === e.StackId,
    )!;
    expect(time(childStart)).toBeLessThan(time(initiated));
    const firstResource = events.find(
      (e) => e.StackId === initiated.PhysicalResourceId && e.LogicalResourceId === 'Good',
    )!;
    expect(time(firstResource)).toBeGreaterThan(time(initiated));
  });
});
