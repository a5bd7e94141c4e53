// Stack sets: each set of every account with its instances' status per account and region (a grid, a link to each
// instance's stack) and its operations with their per-account results; it reads again as the feed reports stacks.
import { useEffect, useState } from 'preact/hooks';
import { feedListeners, get, type StackSetRow } from './api.js';

type Tone = 'success' | 'error' | 'warning' | 'info' | 'stopped';

/** The stack set statuses' colours, as the AWS console shows them. */
const TONES: Partial<Record<string, Tone>> = {
  ACTIVE: 'success',
  CURRENT: 'success',
  SUCCEEDED: 'success',
  OUTDATED: 'warning',
  CANCELLED: 'warning',
  STOPPED: 'stopped',
  DELETED: 'stopped',
  FAILED: 'error',
  INOPERABLE: 'error',
  RUNNING: 'info',
  PENDING: 'info',
  QUEUED: 'info',
  STOPPING: 'info',
};

const RUNNING = new Set(['RUNNING', 'QUEUED', 'STOPPING']);

function SetStatus({ status, title }: { status: string; title?: string }) {
  return (
    <span class={`status ${TONES[status] ?? 'stopped'}`} data-status={status} title={title}>
      {status}
    </span>
  );
}

function Instances({ set }: { set: StackSetRow }) {
  const regions = [...new Set(set.Instances.map((i) => i.Region))].sort();
  const accounts = [...new Set(set.Instances.map((i) => i.Account))].sort();
  if (!set.Instances.length) return <p>No stack instances.</p>;
  return (
    <table class="grid" aria-label={`Stack instances of ${set.StackSetName}`}>
      <thead>
        <tr>
          <th scope="col">Account</th>
          {regions.map((r) => (
            <th scope="col" key={r}>
              {r}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {accounts.map((a) => (
          <tr key={a}>
            <th scope="row">{a}</th>
            {regions.map((r) => {
              const i = set.Instances.find((x) => x.Account === a && x.Region === r);
              return (
                <td key={r} data-instance={`${a}/${r}`}>
                  {i ? (
                    <>
                      <SetStatus status={i.Status} title={i.StatusReason} />{' '}
                      <small>{i.StackInstanceStatus?.DetailedStatus}</small>{' '}
                      {i.StackId ? <a href={`#/stack/${encodeURIComponent(i.StackId)}`}>stack</a> : null}
                      {i.StatusReason ? <div class="reason">{i.StatusReason}</div> : null}
                    </>
                  ) : (
                    '–'
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Operations({ set }: { set: StackSetRow }) {
  if (!set.Operations.length) return <p>No operations.</p>;
  return (
    <ol class="operations" aria-label={`Operations of ${set.StackSetName}`}>
      {set.Operations.map((op) => (
        <li key={op.OperationId} data-operation={op.OperationId}>
          <details>
            <summary>
              {op.Action} <SetStatus status={op.Status} /> <code>{op.OperationId}</code>{' '}
              <time dateTime={op.CreationTimestamp}>{new Date(op.CreationTimestamp).toLocaleString()}</time>
            </summary>
            <ul>
              {op.Results.map((r) => (
                <li key={`${r.Account}/${r.Region}`}>
                  {r.Account} / {r.Region}: <SetStatus status={r.Status} />
                  {r.StatusReason ? <span class="reason"> {r.StatusReason}</span> : null}
                </li>
              ))}
            </ul>
          </details>
        </li>
      ))}
    </ol>
  );
}

export function StackSetsView() {
  const [sets, setSets] = useState<StackSetRow[] | undefined>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let pending = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () => {
      if (pending) return;
      pending = true;
      get<{ stackSets: StackSetRow[] }>('/stack-sets').then(
        (r) => {
          pending = false;
          setSets(r.stackSets);
          // an operation's own end is no stack change: while one runs, the page reads again once a second
          clearTimeout(timer);
          const running = r.stackSets.some((set) => set.Operations.some((op) => RUNNING.has(op.Status)));
          if (running) timer = setTimeout(load, 1000);
        },
        (err: Error) => {
          pending = false;
          setError(err.message);
        },
      );
    };
    load();
    // an instance's stack moving is what moves its set: read again when the feed reports a stack
    const listener = (msg: { kind: string }) => {
      if (msg.kind === 'stack' || msg.kind === 'reset') load();
    };
    feedListeners.add(listener);
    return () => {
      clearTimeout(timer);
      feedListeners.delete(listener);
    };
  }, []);
  return (
    <section aria-labelledby="stack-sets-title">
      <h1 id="stack-sets-title">
        Stack sets <span class="count">({sets?.length ?? 0})</span>
      </h1>
      {error ? <p role="alert">{error}</p> : null}
      {sets === undefined ? <p>Loading…</p> : sets.length === 0 ? <p>No stack sets.</p> : null}
      {sets?.map((set) => (
        <article key={set.StackSetId} class="stackset" data-stack-set={set.StackSetName} aria-label={set.StackSetName}>
          <h2>
            {set.StackSetName} <SetStatus status={set.Status} />
          </h2>
          <p>
            {set.PermissionModel} · administered by {set.Account} / {set.Region} · drift{' '}
            {set.DriftStatus ?? 'NOT_CHECKED'}
          </p>
          <h3>Instances</h3>
          <Instances set={set} />
          <h3>Operations</h3>
          <Operations set={set} />
        </article>
      ))}
    </section>
  );
}
