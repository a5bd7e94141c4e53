// A stack's change sets, and one as a readable diff: add, modify or remove, replacement True/False/Conditional, the
// properties that cause it, and the data-loss report's marks on replacements and removals of stateful resources.
import { useState } from 'preact/hooks';
import { get } from './api.js';
import type { StackDetail } from './details.js';
import { Status } from './status.js';

interface Detail {
  Target?: {
    Attribute?: string;
    Name?: string;
    RequiresRecreation?: string;
    BeforeValue?: string;
    AfterValue?: string;
  };
  ChangeSource?: string;
  CausingEntity?: string;
  Evaluation?: string;
}

interface ChangeSet {
  ChangeSetName: string;
  Status: string;
  ExecutionStatus: string;
  StatusReason?: string;
  Changes?: {
    ResourceChange: {
      Action: string;
      LogicalResourceId: string;
      PhysicalResourceId?: string;
      ResourceType: string;
      Replacement?: string;
      Details?: Detail[];
    };
  }[];
  Impact: {
    dataLoss: { logicalResourceId: string; data: string; dataItems?: number; reason: string }[];
    blockedReplacements: { logicalResourceId: string; message: string }[];
  };
}

const ACTION_CLASS: Record<string, string> = { Add: 'add', Modify: 'modify', Remove: 'remove', Import: 'add' };

function Diff({ cs }: { cs: ChangeSet }) {
  const loss = new Map(cs.Impact.dataLoss.map((d) => [d.logicalResourceId, d]));
  const blocked = new Map(cs.Impact.blockedReplacements.map((b) => [b.logicalResourceId, b]));
  return (
    <section class="diff" aria-label={`Changes of ${cs.ChangeSetName}`}>
      <h2>
        {cs.ChangeSetName} <Status status={cs.Status} /> <span class="muted">execution {cs.ExecutionStatus}</span>
      </h2>
      {cs.StatusReason && <p>{cs.StatusReason}</p>}
      {!cs.Changes?.length && <p class="empty">No changes.</p>}
      <ul class="changes">
        {(cs.Changes ?? []).map(({ ResourceChange: c }) => {
          const lost = loss.get(c.LogicalResourceId);
          const stop = blocked.get(c.LogicalResourceId);
          return (
            <li
              key={c.LogicalResourceId}
              class={`change ${ACTION_CLASS[c.Action] ?? ''}`}
              data-change={c.LogicalResourceId}
            >
              <p>
                <span class="action">{c.Action}</span> <strong>{c.LogicalResourceId}</strong> {c.ResourceType}
                {c.Replacement && <span class={`replacement r-${c.Replacement}`}> · Replacement: {c.Replacement}</span>}
                {lost && (
                  <span class={`dataloss ${lost.data}`} title={lost.reason}>
                    {' '}
                    · data {lost.data}
                    {lost.dataItems !== undefined ? ` (${lost.dataItems} items)` : ''}
                  </span>
                )}
              </p>
              {stop && <p class="blocked">Cannot proceed: {stop.message}</p>}
              {lost && <p class="muted">{lost.reason}</p>}
              {c.Details?.length ? (
                <ul class="details">
                  {c.Details.map((d, i) => (
                    <li key={i}>
                      {d.Target?.Attribute} <code>{d.Target?.Name}</code>
                      {d.Target?.RequiresRecreation && <> · recreation {d.Target.RequiresRecreation}</>}
                      {d.ChangeSource && <> · {d.ChangeSource}</>}
                      {d.CausingEntity && <> ({d.CausingEntity})</>}
                      {(d.Target?.BeforeValue !== undefined || d.Target?.AfterValue !== undefined) && (
                        <>
                          {' '}
                          <del>{d.Target.BeforeValue}</del> → <ins>{d.Target.AfterValue}</ins>
                        </>
                      )}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function ChangeSetsTab({ detail }: { detail: StackDetail }) {
  const [open, setOpen] = useState<ChangeSet>();
  const [error, setError] = useState<string>();
  const sets = detail.ChangeSets ?? [];
  if (!sets.length) return <p class="empty">No change sets.</p>;
  return (
    <>
      <ul class="cslist">
        {sets.map((s) => (
          <li key={s.ChangeSetId}>
            <button
              type="button"
              onClick={() =>
                void get<ChangeSet>(`/change-set?id=${encodeURIComponent(s.ChangeSetId)}`).then(setOpen, (e: Error) =>
                  setError(e.message),
                )
              }
            >
              {s.ChangeSetName}
            </button>{' '}
            <Status status={s.Status} /> <span class="muted">{s.ExecutionStatus}</span>
          </li>
        ))}
      </ul>
      {error && <p role="alert">{error}</p>}
      {open && <Diff cs={open} />}
    </>
  );
}
