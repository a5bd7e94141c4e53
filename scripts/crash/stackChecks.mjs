// The crash campaign's checks of one stack after a restart settled it (scripts/crash.mjs): a terminal status the
// operations could lead to, events unique and in order along the status table, every resource's last event its
// status, the simulated world holding exactly the live resources with the values the status implies, and the same
// for every nested stack under it.
import {
  DescribeStackEventsCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
} from '@aws-sdk/client-cloudformation';
import { STACK_TRANSITIONS } from '../../dist/state-machine/statuses.js';
import { HOLDING } from './workload.mjs';

const FIRST = ['CREATE_IN_PROGRESS', 'REVIEW_IN_PROGRESS'];
const GONE = ['DELETE_COMPLETE', 'ROLLBACK_COMPLETE'];

async function allEvents(cf, StackName) {
  const events = [];
  let NextToken;
  do {
    const page = await cf.send(new DescribeStackEventsCommand({ StackName, NextToken }));
    events.push(...page.StackEvents);
    NextToken = page.NextToken;
  } while (NextToken);
  return events.reverse();
}

async function allResources(cf, StackName) {
  const resources = [];
  let NextToken;
  do {
    const page = await cf.send(new ListStackResourcesCommand({ StackName, NextToken }));
    resources.push(...page.StackResourceSummaries);
    NextToken = page.NextToken;
  } while (NextToken);
  return resources;
}

/** Unique ids, times that never go back, the stack's own statuses along STACK_TRANSITIONS, ending at `status`. */
function checkEvents(events, stack, where, violation) {
  const ids = new Set();
  let last = 0;
  for (const e of events) {
    if (ids.has(e.EventId)) violation(`${where}: event ${e.EventId} twice`);
    ids.add(e.EventId);
    if (e.Timestamp.getTime() < last) violation(`${where}: event ${e.EventId} is older than the one before it`);
    last = e.Timestamp.getTime();
  }
  const own = events
    .filter((e) => e.LogicalResourceId === stack.StackName && e.PhysicalResourceId === stack.StackId)
    .map((e) => e.ResourceStatus);
  if (!FIRST.includes(own[0])) violation(`${where}: the first stack event is ${own[0]}`);
  for (let i = 1; i < own.length; i++)
    if (!STACK_TRANSITIONS[own[i - 1]]?.includes(own[i]))
      violation(`${where}: stack events go ${own[i - 1]} → ${own[i]}, which the status table does not allow`);
  if (own.at(-1) !== stack.StackStatus)
    violation(`${where}: the last stack event is ${own.at(-1)}, the stack ${stack.StackStatus}`);
}

/** Every resource's newest event names its status; the world holds the live resources, no more, no fewer. */
function checkResources(stack, events, resources, world, where, violation) {
  for (const r of resources) {
    const mine = events.filter(
      (e) => e.LogicalResourceId === r.LogicalResourceId && e.LogicalResourceId !== stack.StackName,
    );
    if (mine.at(-1)?.ResourceStatus !== r.ResourceStatus)
      violation(
        `${where}: ${r.LogicalResourceId} is ${r.ResourceStatus}, its last event ${mine.at(-1)?.ResourceStatus}`,
      );
  }
  const live = resources.filter((r) => r.ResourceStatus !== 'DELETE_COMPLETE' && r.PhysicalResourceId);
  const rows = world.filter((w) => w.stackId === stack.StackId);
  for (const row of rows)
    if (!live.some((r) => r.PhysicalResourceId === row.physicalId && r.LogicalResourceId === row.logicalId))
      violation(`${where}: the world holds ${row.type} ${row.physicalId} (${row.logicalId}), which the stack does not`);
  for (const r of live)
    if (r.ResourceType !== 'AWS::CloudFormation::Stack' && !rows.some((w) => w.physicalId === r.PhysicalResourceId))
      violation(`${where}: ${r.LogicalResourceId} ${r.PhysicalResourceId} is ${r.ResourceStatus} but not in the world`);
  const status = stack.StackStatus;
  if (GONE.includes(status) && live.length) violation(`${where}: ${status} but ${live.length} resources are left`);
  if (!HOLDING.includes(status)) return;
  for (const r of resources)
    if (!['CREATE_COMPLETE', 'UPDATE_COMPLETE'].includes(r.ResourceStatus))
      violation(`${where}: ${status} with ${r.LogicalResourceId} ${r.ResourceStatus}`);
  const value = stack.Parameters?.find((p) => p.ParameterKey === 'Value')?.ParameterValue;
  for (const row of rows.filter((w) => w.type === 'AWS::SSM::Parameter')) {
    const want = `${value}-${row.logicalId.slice(1)}`;
    if (row.properties?.Value !== want)
      violation(
        `${where}: ${row.logicalId} holds ${row.properties?.Value} in the world, the stack's Value is ${value}`,
      );
  }
}

/**
 * Checks the stack `stackId` and the nested stacks under it; `parent` is the parent's status (a child of a stack
 * that is gone must be gone, of one that holds its resources must hold its own). Returns the stack as described.
 */
export async function checkStack(cf, stackId, world, violation, parent) {
  const { Stacks } = await cf.send(new DescribeStacksCommand({ StackName: stackId }));
  const stack = Stacks[0];
  const where = `${stack.StackName} (${stack.StackStatus})`;
  if (/_IN_PROGRESS$|_FAILED$/.test(stack.StackStatus)) violation(`${where}: not a settled status`);
  if (parent && GONE.includes(parent) && stack.StackStatus !== 'DELETE_COMPLETE')
    violation(`${where}: left behind by a parent now ${parent}`);
  if (parent && HOLDING.includes(parent) && !HOLDING.includes(stack.StackStatus))
    violation(`${where}: under a parent in ${parent}`);
  const events = await allEvents(cf, stackId);
  checkEvents(events, stack, where, violation);
  const resources = await allResources(cf, stackId);
  checkResources(stack, events, resources, world, where, violation);
  for (const child of resources.filter((r) => r.ResourceType === 'AWS::CloudFormation::Stack' && r.PhysicalResourceId))
    await checkStack(cf, child.PhysicalResourceId, world, violation, stack.StackStatus);
  return { stack, resources };
}
