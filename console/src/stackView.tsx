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

/** The newest events, read first so that a stack with thousands of them shows its latest at once. */
const FIRST_EVENTS = 200;

/**
 * The stack's events, newest first: the feed's as they come, and the stored ones read in two steps (the newest
 * FIRST_EVENTS, then all); `complete` once all are in (a root cause is marked only then: an older failure may be it).
 */
function useEvents(stackId: string): { events: StackEvent[]; complete: boolean } {
  const [events, setEvents] = useState<StackEvent[]>([]);
  const [complete, setComplete] = useState(false);
  useEffect(() => {
    const known = new Set<string>();
    let stopped = false;
    setEvents([]);
    setComplete(false);
    const listener = (msg: FeedMessage) => {
      if (msg.kind !== 'event' || msg.event.StackId !== stackId || known.has(msg.event.EventId)) return;
      known.add(msg.event.EventId);
      setEvents((old) => [msg.event, ...old]);
    };
    const read = (limit?: number) =>
      get<{ events: StackEvent[] }>(
        `/stack/events?id=${encodeURIComponent(stackId)}${limit ? `&limit=${limit}` : ''}`,
      ).then(({ events: loaded }) => {
        if (stopped) return loaded.length;
        const fresh = loaded.filter((e) => !known.has(e.EventId));
        for (const e of fresh) known.add(e.EventId);
        setEvents((old) => [...old, ...fresh].sort((a, b) => b.Seq - a.Seq));
        return loaded.length;
      });
    feedListeners.add(listener);
    void read(FIRST_EVENTS)
      .then((n) => (n < FIRST_EVENTS ? n : read()))
      .then(() => !stopped && setComplete(true));
    return () => {
      stopped = true;
      feedListeners.delete(listener);
    };
  }, [stackId]);
  return { events, complete };
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
  const { events, complete } = useEvents(stackId);
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
        {tab === 'Events' && <EventsTab events={events} complete={complete} />}
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
