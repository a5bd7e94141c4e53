// Operation events: every stack event carries the OperationId of the operation that wrote it (an automatic rollback
// is an operation of its own, as LastOperations shows), and DescribeEvents reads them by operation, change set or
// stack, with FailedEvents and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CreateChangeSetCommand,
  CreateStackCommand,
  DescribeEventsCommand,
  DescribeStacksCommand,
  ExecuteChangeSetCommand,
  paginateDescribeEvents,
  type DescribeEventsCommandInput,
  type OperationEvent,
} from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { allEvents } from '../helpers/events.js';
import { failing, nested, param, putTemplate, childOf } from './nestedHelpers.js';
import { waitForChangeSet } from './changeSetsHelpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const template = (...resources: string[]) => `Resources:\n${resources.join('')}`;

async function lastOperations(name: string) {
  const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: name }));
  return Stacks![0].LastOperations!;
}

async function operationEvents(input: DescribeEventsCommandInput) {
  const events: OperationEvent[] = [];
  for await (const page of paginateDescribeEvents({ client: server.client }, input))
    events.push(...page.OperationEvents!);
  return events;
}

describe('OperationId on stack events', () => {
  it('a failed create and its rollback are two operations, the rollback listed first', async () => {
    await server.client.send(
      new CreateStackCommand({
        StackName: 'ev-rollback',
        TemplateBody: template(param('A'), param('B', failing('Create'))),
      }),
    );
    expect((await waitForStack(server.client, 'ev-rollback')).StackStatus).toBe('ROLLBACK_COMPLETE');
    const [rollback, create] = await lastOperations('ev-rollback');
    expect(rollback.OperationType).toBe('ROLLBACK');
    expect(create.OperationType).toBe('CREATE_STACK');
    const events = await allEvents(server.client, 'ev-rollback');
    const idOf = (status: string, logical = 'ev-rollback') =>
      events.find((e) => e.ResourceStatus === status && e.LogicalResourceId === logical)!.OperationId;
    expect(idOf('CREATE_IN_PROGRESS')).toBe(create.OperationId);
    expect(idOf('CREATE_FAILED', 'B')).toBe(create.OperationId);
    expect(idOf('ROLLBACK_IN_PROGRESS')).toBe(rollback.OperationId);
    expect(idOf('ROLLBACK_COMPLETE')).toBe(rollback.OperationId);
    expect(events.every((e) => e.OperationId === create.OperationId || e.OperationId === rollback.OperationId)).toBe(
      true,
    );
  });

  it('a nested stack carries its own OperationId', async () => {
    const url = await putTemplate(server, template(param('Inner')));
    await server.client.send(
      new CreateStackCommand({ StackName: 'ev-parent', TemplateBody: template(nested('Child', url)) }),
    );
    await waitForStack(server.client, 'ev-parent');
    const child = await childOf(server.client, 'ev-parent', 'Child');
    const [parentOp] = await lastOperations('ev-parent');
    const [childOp] = child.LastOperations!;
    expect(childOp.OperationId).not.toBe(parentOp.OperationId);
    const childEvents = await allEvents(server.client, child.StackId!);
    expect(new Set(childEvents.map((e) => e.OperationId))).toEqual(new Set([childOp.OperationId]));
  });
});

describe('DescribeEvents', () => {
  it('by OperationId with FailedEvents returns only that operation’s failures, with its type and status', async () => {
    const [, create] = await lastOperations('ev-rollback');
    const failed = await operationEvents({ OperationId: create.OperationId, Filters: { FailedEvents: true } });
    expect(failed.map((e) => [e.LogicalResourceId, e.ResourceStatus, e.EventType])).toEqual([
      ['B', 'CREATE_FAILED', 'PROVISIONING_ERROR'],
    ]);
    expect(failed[0]).toMatchObject({ OperationType: 'CREATE_STACK', OperationStatus: 'FAILED' });
    expect(failed[0].StartTime).toBeInstanceOf(Date);
    expect(failed[0].EndTime!.getTime()).toBeGreaterThanOrEqual(failed[0].StartTime!.getTime());
  });

  it('by StackName returns the stack’s newest operation: here the rollback, which succeeded', async () => {
    const events = await operationEvents({ StackName: 'ev-rollback' });
    expect(new Set(events.map((e) => e.OperationType))).toEqual(new Set(['ROLLBACK']));
    expect(events[0]).toMatchObject({
      ResourceStatus: 'ROLLBACK_COMPLETE',
      EventType: 'STACK_EVENT',
      OperationStatus: 'SUCCEEDED',
    });
    expect(await operationEvents({ StackName: 'ev-rollback', Filters: { FailedEvents: true } })).toEqual([]);
  });

  it('by ChangeSetName returns the change set’s creation and execution', async () => {
    const { Id } = await server.client.send(
      new CreateChangeSetCommand({
        StackName: 'ev-cs',
        ChangeSetName: 'first',
        ChangeSetType: 'CREATE',
        TemplateBody: template(param('A')),
      }),
    );
    const created = await operationEvents({ ChangeSetName: Id });
    expect(created.map((e) => [e.OperationType, e.ResourceStatus])).toEqual([
      ['CREATE_CHANGESET', 'REVIEW_IN_PROGRESS'],
    ]);
    await waitForChangeSet(server.client, Id!);
    await server.client.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
    await waitForStack(server.client, 'ev-cs');
    const all = await operationEvents({ ChangeSetName: Id });
    expect(all[0]).toMatchObject({ OperationType: 'CREATE_STACK', ResourceStatus: 'CREATE_COMPLETE' });
    expect(all.at(-1)).toMatchObject({ OperationType: 'CREATE_CHANGESET', OperationStatus: 'SUCCEEDED' });
  });

  it('pages through an operation’s events newest first, without overlap', async () => {
    const many = Array.from({ length: 60 }, (_, i) => param(`P${i}`)).join('');
    await server.client.send(new CreateStackCommand({ StackName: 'ev-many', TemplateBody: template(many) }));
    await waitForStack(server.client, 'ev-many', 30_000);
    const first = await server.client.send(new DescribeEventsCommand({ StackName: 'ev-many' }));
    expect(first.OperationEvents).toHaveLength(100);
    expect(first.NextToken).toBeDefined();
    const events = await operationEvents({ StackName: 'ev-many' });
    const stackEvents = await allEvents(server.client, 'ev-many');
    expect(events.length).toBeGreaterThan(120);
    expect(events.map((e) => e.EventId)).toEqual(stackEvents.map((e) => e.EventId).reverse());
    const times = events.map((e) => e.Timestamp!.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it.each([
    ['no member', {}],
    ['a change set name without StackName', { ChangeSetName: 'first' }],
  ])('returns ValidationError for %s', async (_, input) => {
    await expect(server.client.send(new DescribeEventsCommand(input))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'One of ChangeSetName, OperationId or StackName must be specified',
    });
  });

  it('returns ValidationError for a stack that does not exist, and nothing for an unknown OperationId', async () => {
    await expect(server.client.send(new DescribeEventsCommand({ StackName: 'ev-none' }))).rejects.toMatchObject({
      name: 'ValidationError',
      message: 'Stack [ev-none] does not exist',
    });
    const { OperationEvents } = await server.client.send(
      new DescribeEventsCommand({ OperationId: '00000000-0000-0000-0000-000000000000' }),
    );
    expect(OperationEvents).toEqual([]);
  });
});
