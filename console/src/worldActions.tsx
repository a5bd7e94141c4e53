// What a resource of the simulated account offers beyond its properties: a bucket's objects, a function's Invoke
// (Lambda's own API on this port, which runs the function's code locally), and what a queue or table in the backend
// holds (asked of the backend).
import { useEffect, useState } from 'preact/hooks';
import { get } from './api.js';

export interface WorldResource {
  account: string;
  region: string;
  type: string;
  physicalId: string;
  name?: string;
  stackName?: string;
  logicalId?: string;
  properties: Record<string, unknown>;
  state: Record<string, unknown>;
  /** `backend` when --backend's endpoint holds it, else `simulated`. */
  lives?: 'backend' | 'simulated';
}

interface S3Object {
  Key: string;
  Size: number;
  LastModified: string;
}

export function BucketObjects({ r }: { r: WorldResource }) {
  const [objects, setObjects] = useState<{ objects: S3Object[]; truncated: boolean }>();
  const load = () =>
    void get<{ objects: S3Object[]; truncated: boolean }>(
      `/bucket-objects?account=${r.account}&bucket=${encodeURIComponent(r.physicalId)}`,
    ).then(setObjects);
  if (!objects)
    return (
      <button type="button" onClick={load}>
        List objects
      </button>
    );
  return (
    <div class="objects">
      {objects.objects.length ? (
        <ul aria-label={`Objects in ${r.physicalId}`}>
          {objects.objects.map((o) => (
            <li key={o.Key}>
              <code>{o.Key}</code> <span class="muted">{o.Size} bytes</span>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">No objects.</p>
      )}
      {objects.truncated && <p class="muted">The first 1,000 objects.</p>}
    </div>
  );
}

/**
 * Invokes through Lambda's API on this port. The credential scope names the function's account and region (the
 * server reads them from it, as from any SDK's request; signatures are never verified).
 */
async function invoke(r: WorldResource, payload: string) {
  const name = (r.name ?? r.physicalId).split(':').pop()!;
  const scope = `${r.account}/20260101/${r.region}/lambda/aws4_request`;
  const res = await fetch(`/2015-03-31/functions/${encodeURIComponent(name)}/invocations`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `AWS4-HMAC-SHA256 Credential=${scope}, SignedHeaders=host, Signature=0`,
    },
    body: payload,
  });
  const error = res.headers.get('x-amz-function-error');
  return `HTTP ${res.status}${error ? ` (${error})` : ''}\n${await res.text()}`;
}

export function InvokeFunction({ r }: { r: WorldResource }) {
  const [payload, setPayload] = useState('{}');
  const [result, setResult] = useState<string>();
  const id = `payload-${r.physicalId}`;
  return (
    <form
      class="edit"
      onSubmit={(e) => {
        e.preventDefault();
        setResult('Invoking…');
        invoke(r, payload).then(setResult, (err: Error) => setResult(err.message));
      }}
    >
      <label for={id}>Event (JSON)</label>
      <textarea id={id} rows={2} value={payload} onInput={(e) => setPayload(e.currentTarget.value)} />
      <button type="submit">Invoke</button>
      {result !== undefined && (
        <pre class="code" role="status">
          {result}
        </pre>
      )}
    </form>
  );
}

/** The types the backend is asked about (server/routes/consoleBackend.ts). */
export const COUNTED_TYPES = new Set(['AWS::SQS::Queue', 'AWS::DynamoDB::Table']);

interface Counts {
  ApproximateNumberOfMessages?: number;
  ApproximateNumberOfMessagesNotVisible?: number;
  ApproximateNumberOfMessagesDelayed?: number;
  ItemCount?: number;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function describeCounts(c: Counts): string {
  if (c.ItemCount !== undefined) return plural(c.ItemCount, 'item');
  return `${plural(c.ApproximateNumberOfMessages ?? 0, 'message')} available, ${c.ApproximateNumberOfMessagesNotVisible ?? 0} in flight, ${c.ApproximateNumberOfMessagesDelayed ?? 0} delayed`;
}

/** A queue's approximate message counts or a table's item count, as the backend reports them now. */
export function BackendCounts({ r }: { r: WorldResource }) {
  const [text, setText] = useState('Asking the backend…');
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const q = `account=${r.account}&region=${r.region}&type=${encodeURIComponent(r.type)}&id=${encodeURIComponent(r.physicalId)}`;
    get<{ counts: Counts }>(`/backend-counts?${q}`).then(
      ({ counts }) => setText(describeCounts(counts)),
      (err: Error) => setText(err.message),
    );
  }, [r.account, r.region, r.type, r.physicalId, version]);
  return (
    <p class="counts">
      In the backend: <span role="status">{text}</span>{' '}
      <button type="button" onClick={() => setVersion((v) => v + 1)}>
        Refresh counts
      </button>
    </p>
  );
}
