// One stack: its status, and tabs for its events, timeline, resources, drift, outputs, parameters, tags, policy,
// template, dependency graph and change sets. Events arrive live from the feed; a status change or the end of a drift
// detection reloads the rest.
import { useEffect, useState } from 'preact/hooks';
import { feedListeners, get, type FeedMessage, type StackEvent, type StackRow } from './api.js';
import { Status } from './status.js';
import { EventsTab } from './eventsTab.js';
import { TimelineTab } from './timeline.js';
import { DetailTabs, type StackDetail } from './details.js';
import { GraphTab } from './graph.js';
import { TemplateTab } from './templateTab.js';
import { ChangeSetsTab } from './changeSets.js';
import { DriftTab } from './drift.js';

const TABS = [
  'Events',
  'Timeline',
  'Resources',
  'Drift',
  'Outputs',
  'Parameters',
  'Tags',
  'Policy',
  'Template',
  'Graph',
  'Change sets',
] as const;
type Tab = (typeof TABS)[number];

function useEvents(stackId: string): StackEvent[] {
  const [events, setEvents] = useState<StackEvent[]>([]);
  useEffect(() => {
    let known = new Set<string>();
    let pending: StackEvent[] = [];
    const listener = (msg: FeedMessage) => {
      if (msg.kind !== 'event' || msg.event.StackId !== stackId || known.has(msg.event.EventId)) return;
      known.add(msg.event.EventId);
      pending.push(msg.event);
      setEvents((old) => [...pending, ...old]);
      pending = [];
    };
    feedListeners.add(listener);
    void get<{ events: StackEvent[] }>(`/stack/events?id=${encodeURIComponent(stackId)}`).then(({ events: loaded }) => {
      const fresh = loaded.filter((e) => !known.has(e.EventId));
      known = new Set([...known, ...loaded.map((e) => e.EventId)]);
      setEvents((old) => [...old, ...fresh].sort((a, b) => b.Seq - a.Seq));
    });
    return () => feedListeners.delete(listener);
  }, [stackId]);
  return events;
}

/** Counts the feed's drift detection changes of this stack: a new count reloads its detail. */
function useDriftChanges(stackId: string): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const listener = (msg: FeedMessage) => {
      if (msg.kind === 'drift' && msg.stackId === stackId) setCount((c) => c + 1);
    };
    feedListeners.add(listener);
    return () => feedListeners.delete(listener);
  }, [stackId]);
  return count;
}

function Tabs({ tab, setTab }: { tab: Tab; setTab: (t: Tab) => void }) {
  // the WAI-ARIA tabs pattern: arrows move to the next or previous tab (wrapping), Home and End to the first or last
  const move = (e: KeyboardEvent) => {
    const i = TABS.indexOf(tab);
    const steps: Partial<Record<string, number>> = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: -1 };
    const next = steps[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const t = TABS[(next + TABS.length) % TABS.length];
    setTab(t);
    document.getElementById(`tab-${t}`)?.focus();
  };
  return (
    <div role="tablist" aria-label="Stack details" class="tabs" onKeyDown={move}>
      {TABS.map((t) => (
        <button
          key={t}
          role="tab"
          id={`tab-${t}`}
          aria-selected={t === tab}
          aria-controls="tabpanel"
          tabIndex={t === tab ? 0 : -1}
          onClick={() => setTab(t)}
        >
          {t}
        </button>
      ))}
    </div>
  );
}

export function StackView({
  stackId,
  row,
  stacks,
}: {
  stackId: string;
  row?: StackRow;
  stacks: StackRow[];
  version: number;
}) {
  const [tab, setTab] = useState<Tab>('Events');
  const [detail, setDetail] = useState<StackDetail>();
  const [error, setError] = useState<string>();
  const events = useEvents(stackId);
  const drifts = useDriftChanges(stackId);
  const status = row?.StackStatus;
  useEffect(() => {
    get<StackDetail>(`/stack?id=${encodeURIComponent(stackId)}`).then(setDetail, (e: Error) => setError(e.message));
  }, [stackId, status, drifts]);
  const name = row?.StackName ?? detail?.Stack.StackName ?? stackId;
  const children = stacks.filter((s) => s.ParentId === stackId);
  return (
    <section aria-labelledby="stack-title" class="stack">
      <p class="crumbs">
        <a href="#/">Stacks</a>
        {row?.ParentId && (
          <>
            {' › '}
            <a href={`#/stack/${encodeURIComponent(row.ParentId)}`}>parent stack</a>
          </>
        )}
      </p>
      <h1 id="stack-title">
        {name} <Status status={status ?? detail?.Stack.StackStatus} />
      </h1>
      {error && <p role="alert">{error}</p>}
      <p class="reason">{row?.StackStatusReason ?? detail?.Stack.StackStatusReason}</p>
      {children.length > 0 && (
        <p>
          Nested stacks:{' '}
          {children.map((c) => (
            <a key={c.StackId} class="chip" href={`#/stack/${encodeURIComponent(c.StackId)}`}>
              {c.StackName} <Status status={c.StackStatus} />
            </a>
          ))}
        </p>
      )}
      <Tabs tab={tab} setTab={setTab} />
      <div role="tabpanel" id="tabpanel" aria-labelledby={`tab-${tab}`} class="panel">
        {tab === 'Events' && <EventsTab events={events} />}
        {tab === 'Timeline' && <TimelineTab events={events} />}
        {tab === 'Graph' && <GraphTab stackId={stackId} events={events} />}
        {tab === 'Template' && detail && <TemplateTab detail={detail} />}
        {tab === 'Change sets' && detail && <ChangeSetsTab detail={detail} />}
        {tab === 'Drift' && detail && <DriftTab detail={detail} />}
        {detail && <DetailTabs tab={tab} detail={detail} />}
      </div>
    </section>
  );
}
