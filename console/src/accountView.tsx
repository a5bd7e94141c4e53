// The simulated account by type (buckets and their objects, parameters, functions to invoke, retained leftovers, and
// with a backend what its queues and tables hold…), with the control API's fault controls as buttons: make a bucket
// non-empty, edit a property, clear faults, reset.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { call, get } from './api.js';
import { BackendCounts, BucketObjects, COUNTED_TYPES, InvokeFunction, type WorldResource } from './worldActions.js';

interface Fault {
  id: string;
  action: string;
  stackName?: string;
  logicalId?: string;
  resourceType?: string;
  times?: number;
}

const DATA_HOLDERS = new Set(['AWS::S3::Bucket', 'AWS::SQS::Queue', 'AWS::Logs::LogGroup', 'AWS::ECR::Repository']);

const query = (r: WorldResource) =>
  `${encodeURIComponent(r.physicalId)}?type=${encodeURIComponent(r.type)}&account=${r.account}&region=${r.region}`;

function EditProperties({ r, done }: { r: WorldResource; done: () => void }) {
  const [text, setText] = useState('{}');
  const [error, setError] = useState('');
  const id = `edit-${r.physicalId}`;
  return (
    <form
      class="edit"
      onSubmit={(e) => {
        e.preventDefault();
        let patch: unknown;
        try {
          patch = JSON.parse(text);
        } catch (err) {
          return setError((err as Error).message);
        }
        call('PATCH', `/world/${query(r)}`, { properties: patch }).then(done, (err: Error) => setError(err.message));
      }}
    >
      <label for={id}>Properties merge patch for {r.physicalId} (null removes a key)</label>
      <textarea id={id} rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit">Apply</button>
      {error && <span role="alert">{error}</span>}
    </form>
  );
}

function ResourceRow({ r, reload }: { r: WorldResource; reload: () => void }) {
  const [editing, setEditing] = useState(false);
  const owner = r.stackName ? `${r.stackName} / ${r.logicalId}` : 'no stack (retained or created outside)';
  // where it lives is said by its own mark, not as out-of-band state
  const { lives: _lives, ...state } = r.state;
  return (
    <li class="world-item" data-physical-id={r.physicalId}>
      <p>
        <code>{r.physicalId}</code> <span class="muted">{owner}</span>{' '}
        <span class="muted">
          {r.account} / {r.region}
        </span>
        {r.lives === 'backend' && (
          <>
            {' '}
            <span class="lives">in the backend</span>
          </>
        )}
        {Object.keys(state).length > 0 && <span class="state"> state {JSON.stringify(state)}</span>}
      </p>
      <p class="actions">
        {DATA_HOLDERS.has(r.type) && (
          <button type="button" onClick={() => void call('PATCH', `/world/${query(r)}`, { dataItems: 3 }).then(reload)}>
            Make non-empty
          </button>
        )}
        <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Edit a property
        </button>
      </p>
      {r.type === 'AWS::S3::Bucket' && <BucketObjects r={r} />}
      {r.type === 'AWS::Lambda::Function' && <InvokeFunction r={r} />}
      {r.lives === 'backend' && COUNTED_TYPES.has(r.type) && <BackendCounts r={r} />}
      {editing && (
        <EditProperties
          r={r}
          done={() => {
            setEditing(false);
            reload();
          }}
        />
      )}
      <details>
        <summary>Properties</summary>
        <pre class="code">{JSON.stringify(r.properties, null, 2)}</pre>
      </details>
    </li>
  );
}

export function AccountView() {
  const [resources, setResources] = useState<WorldResource[]>([]);
  const [faults, setFaults] = useState<Fault[]>([]);
  const [version, setVersion] = useState(0);
  const reload = () => setVersion((v) => v + 1);
  useEffect(() => {
    void get<{ resources: WorldResource[] }>('/world').then((w) => setResources(w.resources));
    void get<{ faults: Fault[] }>('/faults').then((f) => setFaults(f.faults));
  }, [version]);
  const byType = useMemo(() => {
    const groups = new Map<string, WorldResource[]>();
    for (const r of resources) groups.set(r.type, [...(groups.get(r.type) ?? []), r]);
    return [...groups].sort(([a], [b]) => a.localeCompare(b));
  }, [resources]);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Simulated account</h1>
      <section aria-labelledby="faults-title" class="box">
        <h2 id="faults-title">Faults</h2>
        {faults.length ? (
          <ul>
            {faults.map((f) => (
              <li key={f.id}>
                {f.action} of {f.stackName ?? 'any stack'} / {f.logicalId ?? f.resourceType ?? 'any resource'}
                {f.times !== undefined ? ` (${f.times} time${f.times === 1 ? '' : 's'})` : ''}{' '}
                <button type="button" onClick={() => void call('DELETE', `/faults/${f.id}`).then(reload)}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">No faults registered. A stack's Resources tab has buttons that add them.</p>
        )}
        <button
          type="button"
          class="danger"
          onClick={() => {
            if (confirm('Reset the server: every stack, resource and fault is removed.'))
              void call('POST', '/reset').then(reload);
          }}
        >
          Reset the server
        </button>
      </section>
      {byType.map(([type, list]) => (
        <section key={type} aria-label={type} class="box">
          <h2>
            {type} <span class="count">({list.length})</span>
          </h2>
          <ul class="world">
            {list.map((r) => (
              <ResourceRow key={`${r.account}/${r.region}/${r.physicalId}`} r={r} reload={reload} />
            ))}
          </ul>
        </section>
      ))}
      {!byType.length && <p class="empty">The simulated account holds no resources.</p>}
    </section>
  );
}
