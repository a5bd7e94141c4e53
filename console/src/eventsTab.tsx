// A stack's events, newest operation first, each operation's root cause marked; one virtualised list of them all.
import { useMemo } from 'preact/hooks';
import type { StackEvent } from './api.js';
import { operations, type Operation } from './operations.js';
import { Status } from './status.js';
import { VirtualList } from './virtualList.js';

type Row = { head: Operation } | { event: StackEvent; root: boolean };

/** `complete`: every stored event is in; until then no root cause is marked (an older failure may be it). */
export function EventsTab({ events, complete }: { events: StackEvent[]; complete: boolean }) {
  const rows = useMemo(() => {
    const out: Row[] = [];
    for (const op of operations(events)) {
      if (!complete) op.rootCause = undefined;
      out.push({ head: op });
      for (const event of [...op.events].reverse()) out.push({ event, root: event === op.rootCause });
    }
    return out;
  }, [events, complete]);
  if (!events.length) return <p class="empty">{complete ? 'No events yet.' : 'Reading the events…'}</p>;
  return (
    <>
      {!complete && (
        <p class="muted" role="status">
          The newest {events.length} events; reading the older ones…
        </p>
      )}
      <div class="thead eventrow" aria-hidden="true">
        <span>Timestamp</span>
        <span>Logical ID</span>
        <span>Status</span>
        <span>Status reason</span>
      </div>
      <VirtualList
        items={rows}
        rowHeight={30}
        height={Math.max(300, innerHeight - 330)}
        label="Events"
        row={(r) =>
          'head' in r ? (
            <div class="ophead">
              <strong>Operation</strong> {r.head.title} · {new Date(r.head.started).toLocaleString()} ·{' '}
              {r.head.events.length} events
              {r.head.rootCause && <span class="rootnote"> · root cause: {r.head.rootCause.LogicalResourceId}</span>}
            </div>
          ) : (
            <div class={`eventrow${r.root ? ' root' : ''}`} data-logical-id={r.event.LogicalResourceId}>
              <time dateTime={r.event.Timestamp}>{new Date(r.event.Timestamp).toLocaleTimeString()}</time>
              <span title={r.event.ResourceType}>{r.event.LogicalResourceId}</span>
              <Status status={r.event.ResourceStatus} />
              <span class="why" title={r.event.ResourceStatusReason}>
                {r.root && <strong class="rootcause">Root cause </strong>}
                {r.event.ResourceStatusReason}
              </span>
            </div>
          )
        }
      />
    </>
  );
}
