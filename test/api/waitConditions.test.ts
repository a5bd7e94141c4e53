// WaitConditionHandle / WaitCondition through the real signal protocol (an HTTP PUT to the handle's URL); reasons as
// AWS shows them (CloudFormation user guide, WaitCondition). CreationPolicy and SignalResource: creationPolicy.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateStackCommand, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { startServer, waitForStack, type TestServer } from '../helpers/server.js';
import { ManualTimers } from '../helpers/timers.js';
import { eventLines, physicalIdOnceCreated, resourceEvents } from './worldHelpers.js';
import { HANDLE_EXPIRES_S, presign } from '../../resources/presign.js';

const TEMPLATE = (count = 1, timeout = 5) => `
Resources:
  Handle:
    Type: AWS::CloudFormation::WaitConditionHandle
  Wait:
    Type: AWS::CloudFormation::WaitCondition
    Properties:
      Handle: !Ref Handle
      Timeout: '${timeout}'
      Count: ${count}
Outputs:
  Url:
    Value: !Ref Handle
  Data:
    Value: !GetAtt Wait.Data
`;

let server: TestServer;
// Every wait's timeout runs on these: a test moves time past a deadline instead of waiting for it.
const timers = new ManualTimers();
beforeAll(async () => {
  server = await startServer({ timers });
});
afterAll(() => server.close());

const PRESIGNED =
  '\\?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=cfnlocal%2F\\d{8}%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=\\d{8}T\\d{6}Z&X-Amz-Expires=86399&X-Amz-SignedHeaders=host&X-Amz-Signature=[0-9a-f]{64}';

/** A URL signed with the server's own key, as it signs the handle URLs it gives out. */
const signed = (url: string, at = new Date()) =>
  presign(url, server.app.store.secrets.get('signal-urls'), at, HANDLE_EXPIRES_S, 'us-east-1');

/** Starts a stack and returns its id and the handle URL once the handle exists. */
async function startWaiting(name: string, body: string) {
  const { StackId } = await server.client.send(new CreateStackCommand({ StackName: name, TemplateBody: body }));
  return { id: StackId!, url: await physicalIdOnceCreated(server.client, StackId!, 'Handle') };
}

// cfn-signal and the documented curl send the body with an empty Content-Type.
const signal = (url: string, body: unknown) =>
  fetch(url, {
    method: 'PUT',
    headers: { 'content-type': '' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const failureReason = async (id: string, logicalId: string) =>
  (await resourceEvents(server.client, id, logicalId)).find((e) => e.ResourceStatus === 'CREATE_FAILED')
    ?.ResourceStatusReason;

describe('AWS::CloudFormation::WaitCondition', () => {
  it('reaches CREATE_COMPLETE once the handle URL receives Count SUCCESS signals, with Data keyed by UniqueId', async () => {
    const { id, url } = await startWaiting('wc-ok', TEMPLATE(2));
    expect(url).toMatch(
      new RegExp(
        `^${server.endpoint}/_cfn-local/waitcondition/arn%3Aaws%3Acloudformation%3Aus-east-1%3A000000000000%3Astack/wc-ok/[0-9a-f-]+/Handle${PRESIGNED}$`,
      ),
    );
    expect((await signal(url, { Status: 'SUCCESS', Reason: 'step 1', UniqueId: 'one', Data: 'first' })).status).toBe(
      200,
    );
    // No wait needed: the PUT wakes the wait in the same event-loop turn, and the answer leaves only after that
    // turn's group commit, so by now the wait has counted one signal of two and is waiting again.
    expect(await eventLines(server.client, id, 'Wait')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
    ]);
    await signal(url, { Status: 'SUCCESS', Reason: 'step 2', UniqueId: 'two', Data: 'second' });
    const stack = await waitForStack(server.client, id);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const outputs = Object.fromEntries(stack.Outputs!.map((o) => [o.OutputKey, o.OutputValue]));
    expect(JSON.parse(outputs.Data!)).toEqual({ one: 'first', two: 'second' });
    expect(outputs.Url).toBe(url);
    // A handle signal is kept, not published: AWS's per-signal events are those of SignalResource (below).
    expect(await eventLines(server.client, id, 'Wait')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
      'CREATE_COMPLETE',
    ]);
    const events = await resourceEvents(server.client, id, 'Wait');
    expect(events[2].PhysicalResourceId).toBe(`${id}/Handle`);
  });

  it('ignores a repeated UniqueId as a retransmission: the first signal with that id stands', async () => {
    const { id, url } = await startWaiting('wc-repeat', TEMPLATE(2, 600));
    await signal(url, { Status: 'SUCCESS', UniqueId: 'same', Data: 'a' });
    await signal(url, { Status: 'FAILURE', UniqueId: 'same', Data: 'b', Reason: 'ignored' });
    await signal(url, { Status: 'SUCCESS', UniqueId: 'other', Data: 'c' });
    const stack = await waitForStack(server.client, id);
    expect(stack.StackStatus).toBe('CREATE_COMPLETE');
    const data = stack.Outputs!.find((o) => o.OutputKey === 'Data')!.OutputValue;
    expect(data).toBe(JSON.stringify({ same: 'a', other: 'c' }));
  });

  it('fails with "WaitCondition received failed message" on a FAILURE signal and rolls back', async () => {
    const { id, url } = await startWaiting('wc-fail', TEMPLATE());
    await signal(url, { Status: 'FAILURE', Reason: 'install broke', UniqueId: 'i-1', Data: '' });
    const stack = await waitForStack(server.client, id);
    expect(stack.StackStatus).toBe('ROLLBACK_COMPLETE');
    expect(await failureReason(id, 'Wait')).toBe(
      "WaitCondition received failed message: 'install broke' for uniqueId: i-1",
    );
  });

  it('times out with "WaitCondition timed out. Received 0 conditions when expecting 1", then ROLLBACK_COMPLETE', async () => {
    const { id } = await startWaiting('wc-timeout', TEMPLATE(1, 43_200));
    await timers.armed(43_200_000);
    await timers.advance(43_200_000 - 1);
    expect(await eventLines(server.client, id, 'Wait')).toEqual([
      'CREATE_IN_PROGRESS',
      'CREATE_IN_PROGRESS Resource creation Initiated',
    ]);
    await timers.advance(1);
    await waitForStack(server.client, id);
    expect(await failureReason(id, 'Wait')).toBe('WaitCondition timed out. Received 0 conditions when expecting 1');
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: id }));
    expect(Stacks![0].StackStatus).toBe('ROLLBACK_COMPLETE');
  });

  it('fails with "Unparsable WaitCondition data" when the signal is not the protocol\'s JSON; the PUT gets 400', async () => {
    const { id, url } = await startWaiting('wc-garbage', TEMPLATE());
    const res = await signal(url, 'not json');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Unparsable WaitCondition data/);
    await waitForStack(server.client, id);
    expect(await failureReason(id, 'Wait')).toBe('Unparsable WaitCondition data');
  });

  it('answers 404 to a signed signal for a handle that does not exist', async () => {
    const res = await signal(
      signed(
        `${server.endpoint}/_cfn-local/waitcondition/arn%3Aaws%3Acloudformation%3Aus-east-1%3A000000000000%3Astack/none/x/Handle`,
      ),
      { Status: 'SUCCESS', UniqueId: 'a' },
    );
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe('NoSuchWaitConditionHandle');
  });
});

// AWS hands out presigned S3 URLs (SigV4 query, X-Amz-Expires=86399 on handles); S3 refuses a PUT that is unsigned
// (403 AccessDenied "Access Denied"), wrongly signed (403 SignatureDoesNotMatch) or expired (403 AccessDenied
// "Request has expired"). Knowing a stack ARN must not be enough to signal it.
describe('presigned handle URLs', () => {
  const s3Error = async (res: Response) => {
    const text = await res.text();
    return {
      status: res.status,
      code: /<Code>([^<]*)<\/Code>/.exec(text)?.[1],
      message: /<Message>([^<]*)<\/Message>/.exec(text)?.[1],
    };
  };

  it('refuses unsigned, tampered and expired signals as S3 does, and the wait goes on', async () => {
    const { id, url } = await startWaiting('wc-presigned', TEMPLATE(1, 60));
    const ok = { Status: 'SUCCESS', UniqueId: 'x' };
    expect(await s3Error(await signal(url.split('?')[0], ok))).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Access Denied',
    });
    const tampered = url.replace(
      /X-Amz-Signature=([0-9a-f])/,
      (_, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`,
    );
    expect(await s3Error(await signal(tampered, ok))).toMatchObject({ status: 403, code: 'SignatureDoesNotMatch' });
    const stale = signed(url.split('?')[0], new Date(Date.now() - 2 * 86_400_000));
    expect(await s3Error(await signal(stale, ok))).toEqual({
      status: 403,
      code: 'AccessDenied',
      message: 'Request has expired',
    });
    const partial = url.replace(/&X-Amz-Expires=\d+/, '');
    expect(await s3Error(await signal(partial, ok))).toMatchObject({
      status: 400,
      code: 'AuthorizationQueryParametersError',
    });
    const { Stacks } = await server.client.send(new DescribeStacksCommand({ StackName: id }));
    expect(Stacks![0].StackStatus).toBe('CREATE_IN_PROGRESS');
    expect((await signal(url, ok)).status).toBe(200);
    expect((await waitForStack(server.client, id)).StackStatus).toBe('CREATE_COMPLETE');
  });
});
