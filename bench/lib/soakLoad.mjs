// The mixed load of the soak group (bench/figures/soak.mjs): one client's loop of stack lives through change sets,
// event paging, S3 and SSM calls, and the bad input a fuzzer sends, until a deadline.
import {
  CreateChangeSetCommand,
  DeleteStackCommand,
  DescribeChangeSetCommand,
  DescribeStackEventsCommand,
  ExecuteChangeSetCommand,
} from '@aws-sdk/client-cloudformation';
import { S3Client, CreateBucketCommand, PutObjectCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { SSMClient, PutParameterCommand, GetParameterCommand, GetParametersByPathCommand } from '@aws-sdk/client-ssm';
import { client } from './server.mjs';
import { settle } from './deploy.mjs';
import { template, halfChanged } from './templates.mjs';
import { fuzz } from './soakFuzz.mjs';

const CREDENTIALS = { accessKeyId: 'bench', secretAccessKey: 'bench' };
/** Objects and parameters are overwritten in a ring of this many keys: a steady load, not a growing account. */
const RING = 20;
const OBJECT = Buffer.alloc(16 * 1024, 'soak');

/** The SDK clients one soak client uses, all on the server's port. */
function soakClients(endpoint) {
  const common = { endpoint, region: 'us-east-1', maxAttempts: 1, credentials: CREDENTIALS };
  const clients = {
    cf: client(endpoint),
    s3: new S3Client({ ...common, forcePathStyle: true }),
    ssm: new SSMClient(common),
  };
  return { endpoint, ...clients, destroy: () => Object.values(clients).forEach((c) => c.destroy()) };
}

/** Creates a change set, waits until it can run, and executes it; resolves with the stack id. */
async function runChangeSet(cf, stackName, type, body) {
  const { Id, StackId } = await cf.send(
    new CreateChangeSetCommand({
      StackName: stackName,
      ChangeSetName: `cs-${type.toLowerCase()}`,
      ChangeSetType: type,
      TemplateBody: body,
      Capabilities: ['CAPABILITY_IAM'],
    }),
  );
  for (;;) {
    const { Status, StatusReason } = await cf.send(new DescribeChangeSetCommand({ ChangeSetName: Id }));
    if (Status === 'CREATE_COMPLETE') break;
    if (Status === 'FAILED') throw new Error(`change set ${Id} failed: ${StatusReason}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  await cf.send(new ExecuteChangeSetCommand({ ChangeSetName: Id }));
  return StackId;
}

async function settled(cf, stackId, wanted) {
  const status = await settle(cf, stackId);
  if (status !== wanted) throw new Error(`${stackId} ended ${status}, expected ${wanted}`);
}

/** Every page of a stack's events, as a console or the CDK's progress display reads them. */
async function allEvents(cf, stackId) {
  let NextToken;
  do ({ NextToken } = await cf.send(new DescribeStackEventsCommand({ StackName: stackId, NextToken })));
  while (NextToken);
}

/** A stack's life: created and updated through change sets, its events paged, deleted. */
async function stackLife(cf, name, resources) {
  const stackId = await runChangeSet(cf, name, 'CREATE', template(resources));
  await settled(cf, stackId, 'CREATE_COMPLETE');
  await runChangeSet(cf, stackId, 'UPDATE', template(resources, halfChanged));
  await settled(cf, stackId, 'UPDATE_COMPLETE');
  await allEvents(cf, stackId);
  await cf.send(new DeleteStackCommand({ StackName: stackId }));
  await settled(cf, stackId, 'DELETE_COMPLETE');
  await allEvents(cf, stackId);
}

/** S3 and SSM traffic over a ring of keys: puts overwrite, so the account stays the same size. */
async function serviceCalls({ s3, ssm }, id, i) {
  const Bucket = `soak-${id}`;
  if (i === 0) await s3.send(new CreateBucketCommand({ Bucket }));
  const Key = `k${i % RING}`;
  await s3.send(new PutObjectCommand({ Bucket, Key, Body: OBJECT }));
  await (await s3.send(new GetObjectCommand({ Bucket, Key }))).Body.transformToByteArray();
  await s3.send(new ListObjectsV2Command({ Bucket }));
  const Name = `/soak/${id}/p${i % RING}`;
  await ssm.send(new PutParameterCommand({ Name, Value: `v${i}`, Type: 'String', Overwrite: true }));
  await ssm.send(new GetParameterCommand({ Name }));
  await ssm.send(new GetParametersByPathCommand({ Path: `/soak/${id}` }));
}

/** One client's loop until `until` (a performance.now() time); counts what it did in `counts`. */
export async function soakClient(endpoint, id, until, { resources, counts }) {
  const clients = soakClients(endpoint);
  try {
    for (let i = 0; performance.now() < until; i++) {
      await stackLife(clients.cf, `soak-${id}-${i}`, resources);
      counts.stacks++;
      await serviceCalls(clients, id, i);
      counts.refused += await fuzz(clients, i);
    }
  } finally {
    clients.destroy();
  }
}
