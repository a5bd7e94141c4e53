// The crash campaign's checks once a restart has settled (scripts/crash.mjs): each stack is in a status its
// operations could lead to (what was acknowledged happened; what the kill cut happened or not) with the Value that
// status implies, each stack touched passes stackChecks.mjs, and each object key holds one of the bodies sent to it
// (never a mix, never a body that was acknowledged and lost). Then the workload's model takes what was seen.
import { createHash } from 'node:crypto';
import { DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { checkStack } from './stackChecks.mjs';
import { DATA_BUCKET, HOLDING } from './workload.mjs';

const show = (set) => [...set].map((v) => v ?? 'no object').join(' | ');

async function findByName(cf, StackName) {
  try {
    return (await cf.send(new DescribeStacksCommand({ StackName }))).Stacks[0];
  } catch (err) {
    if (err.$metadata?.httpStatusCode === 400) return undefined;
    throw err;
  }
}

async function checkStacks(workload, world, violation) {
  for (const stack of workload.stacks.values()) {
    const found = await findByName(workload.cf, stack.name);
    const status = found ? found.StackStatus : 'GONE';
    const value = found?.Parameters?.find((p) => p.ParameterKey === 'Value')?.ParameterValue;
    if (!stack.allowed.has(status))
      violation(`${stack.name} is ${status}, its operations lead to ${show(stack.allowed)}`);
    else if (HOLDING.includes(status) && stack.values[status] && !stack.values[status].has(value))
      violation(`${stack.name} is ${status} with Value ${value}, the operations sent ${show(stack.values[status])}`);
    if (found) stack.ids.add(found.StackId);
    if (workload.touchedStacks.has(stack.name) || found?.StackId !== stack.checkedId)
      for (const id of stack.ids) {
        const { resources } = await checkStack(workload.cf, id, world, violation);
        if (id === found?.StackId)
          stack.functionName = resources.find((r) => r.LogicalResourceId === 'Fn')?.PhysicalResourceId;
      }
    Object.assign(stack, { status, value, allowed: new Set([status]), values: { [status]: new Set([value]) } });
    stack.ids = new Set(found ? [found.StackId] : []);
    stack.checkedId = found?.StackId;
  }
  workload.touchedStacks.clear();
}

async function bodyOf(s3, Key) {
  try {
    const out = await s3.send(new GetObjectCommand({ Bucket: DATA_BUCKET, Key }));
    return createHash('md5')
      .update(await out.Body.transformToByteArray())
      .digest('hex');
  } catch (err) {
    if (err.name === 'NoSuchKey') return null;
    throw err;
  }
}

async function checkObjects(workload, violation) {
  for (const key of workload.touchedKeys) {
    const seen = await bodyOf(workload.s3, key);
    const may = workload.objects.get(key);
    if (!may.has(seen)) violation(`s3 ${key} holds ${seen ?? 'no object'}, what was sent: ${show(may)}`);
    workload.objects.set(key, new Set([seen]));
  }
  workload.touchedKeys.clear();
}

export async function checkWorld(workload, endpoint, violation) {
  const { resources: world } = await (await fetch(`${endpoint}/_cfn-local/world`)).json();
  await checkStacks(workload, world, violation);
  await checkObjects(workload, violation);
}
