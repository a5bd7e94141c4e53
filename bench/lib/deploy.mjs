// One stack operation as a client sees it: the call, then DescribeStacks every 5 ms until the stack settles.
import {
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  UpdateStackCommand,
} from '@aws-sdk/client-cloudformation';

export const POLL_MS = 5;
const SETTLED = /_(COMPLETE|FAILED)$/;

/** Polls until the stack's status settles; resolves with that status. */
export async function settle(cf, stackId) {
  for (;;) {
    const { Stacks } = await cf.send(new DescribeStacksCommand({ StackName: stackId }));
    const status = Stacks[0].StackStatus;
    if (SETTLED.test(status)) return status;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

async function timed(cf, start, expected) {
  const t0 = performance.now();
  const stackId = await start();
  const status = await settle(cf, stackId);
  const ms = performance.now() - t0;
  if (status !== expected) throw new Error(`${stackId} ended ${status}, expected ${expected}`);
  return { ms, stackId };
}

export function createStack(cf, name, body) {
  return timed(
    cf,
    async () =>
      (
        await cf.send(
          new CreateStackCommand({
            StackName: name,
            TemplateBody: body,
            Capabilities: ['CAPABILITY_IAM'],
          }),
        )
      ).StackId,
    'CREATE_COMPLETE',
  );
}

export function updateStack(cf, stackId, body) {
  return timed(
    cf,
    async () =>
      (
        await cf.send(
          new UpdateStackCommand({
            StackName: stackId,
            TemplateBody: body,
            Capabilities: ['CAPABILITY_IAM'],
          }),
        )
      ).StackId,
    'UPDATE_COMPLETE',
  );
}

export function deleteStack(cf, stackId) {
  return timed(
    cf,
    async () => {
      await cf.send(new DeleteStackCommand({ StackName: stackId }));
      return stackId;
    },
    'DELETE_COMPLETE',
  );
}
