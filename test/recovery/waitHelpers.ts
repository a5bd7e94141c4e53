// What the crash tests of waits share (waitsCrash.test.ts, customResourceCrash.test.ts): polling for the moment to
// kill the built server at, restarting it on the same database, reaching a URL it handed out before.
import { expect } from 'vitest';
import { DescribeStackResourceCommand, type CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { allEvents, resourceLines } from '../helpers/events.js';
import { kill, start, type Running } from '../helpers/process.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `ready` holds (the server has reached the moment the test kills it at). */
export async function until(ready: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (await ready()) return;
    await sleep(10);
  }
  throw new Error(`never ${what}`);
}

/** Until the resource has logged "Resource creation Initiated": it is in its wait. */
export const waitingFor = (client: CloudFormationClient, stackId: string, logicalId: string) =>
  until(
    async () =>
      (await resourceLines(client, stackId, logicalId, true)).includes(
        `${logicalId} CREATE_IN_PROGRESS: Resource creation Initiated`,
      ),
    `${logicalId} waiting`,
  );

export async function physicalId(client: CloudFormationClient, stackId: string, logicalId: string) {
  const { StackResourceDetail } = await client.send(
    new DescribeStackResourceCommand({ StackName: stackId, LogicalResourceId: logicalId }),
  );
  return StackResourceDetail!.PhysicalResourceId!;
}

/** The restarted server listens on another port: a URL handed out before is reached there (same path and query). */
export const at = (run: Running, url: string) => `${run.endpoint}${url.slice(new URL(url).origin.length)}`;

export const put = (url: string, body: unknown) =>
  fetch(url, { method: 'PUT', headers: { 'content-type': '' }, body: JSON.stringify(body) });

/** Events are neither lost nor repeated, and none says a wait was cancelled. */
export async function checkEvents(run: Running, stackId: string) {
  const events = await allEvents(run.client, stackId);
  expect(new Set(events.map((e) => e.EventId)).size).toBe(events.length);
  expect(events.filter((e) => /cancelled/.test(e.ResourceStatusReason ?? ''))).toEqual([]);
}

/** Kills the server at this moment and starts it again on the same database. */
export async function restart(run: Running, db: string, downMs = 0, args: readonly string[] = []): Promise<Running> {
  await kill(run);
  await sleep(downMs);
  return start(db, args);
}
