// What a resource in the backend holds, read from the backend as the AWS console reads it: a queue's approximate
// message counts (GetQueueAttributes) and a table's item count (DescribeTable: AWS refreshes it about every six
// hours, moto at once). The console's account
// view shows them beside the world row, which records only what the stack believes.
import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { BackendEndpoint } from '../provider.js';
import type { WorldResource } from '../../storage/world.js';
import { clientFor } from './clients.js';
import { backendSdk } from './sdk.js';

const QUEUE_COUNTS = [
  'ApproximateNumberOfMessages',
  'ApproximateNumberOfMessagesNotVisible',
  'ApproximateNumberOfMessagesDelayed',
] as const;

export type BackendCounts = Partial<Record<(typeof QUEUE_COUNTS)[number] | 'ItemCount', number>>;

async function queueCounts(backend: BackendEndpoint, r: WorldResource): Promise<BackendCounts> {
  const m = backendSdk().sqs;
  const sqs = await clientFor<SQSClient>(backend, r, 'sqs', async () => m.SQSClient);
  const got = await sqs.send(
    new m.GetQueueAttributesCommand({ QueueUrl: r.physicalId, AttributeNames: [...QUEUE_COUNTS] }),
  );
  return Object.fromEntries(QUEUE_COUNTS.map((name) => [name, Number(got.Attributes?.[name] ?? 0)]));
}

async function tableCounts(backend: BackendEndpoint, r: WorldResource): Promise<BackendCounts> {
  const m = backendSdk().dynamodb;
  const ddb = await clientFor<DynamoDBClient>(backend, r, 'dynamodb', async () => m.DynamoDBClient);
  const { Table } = await ddb.send(new m.DescribeTableCommand({ TableName: r.physicalId }));
  return { ItemCount: Table?.ItemCount ?? 0 };
}

const READERS: Readonly<Record<string, (backend: BackendEndpoint, r: WorldResource) => Promise<BackendCounts>>> = {
  'AWS::SQS::Queue': queueCounts,
  'AWS::DynamoDB::Table': tableCounts,
};

/** The types whose counts the backend is asked for. */
export const COUNTED_TYPES = Object.keys(READERS);

/** The counts the backend reports for the resource (a type of COUNTED_TYPES, living in the backend). */
export function backendCounts(backend: BackendEndpoint, r: WorldResource): Promise<BackendCounts> {
  return READERS[r.type](backend, r);
}
