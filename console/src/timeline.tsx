// The timeline of one operation: each resource's action as a bar from IN_PROGRESS to COMPLETE or FAILED, so order,
// parallelism and the failure behind a rollback show at a glance.
import { useMemo, useState } from 'preact/hooks';
import type { StackEvent } from './api.js';
import { operations, timelineBars } from './operations.js';
import { toneOf } from './status.js';

export function TimelineTab({ events }: { events: StackEvent[] }) {
  const ops = useMemo(() => operations(events), [events]);
  const [pick, setPick] = useState(0);
  const op = ops.at(Math.min(pick, ops.length - 1));
  if (!op) return <p class="empty">No operation yet.</p>;
  const bars = timelineBars(op);
  const t0 = Date.parse(op.events[0].Timestamp);
  const t1 = Math.max(t0 + 1, ...op.events.map((e) => Date.parse(e.Timestamp)));
  const pct = (t: number) => `${((t - t0) / (t1 - t0)) * 100}%`;
  return (
    <>
      <label>
        Operation{' '}
        <select value={pick} onChange={(e) => setPick(Number(e.currentTarget.value))}>
          {ops.map((o, i) => (
            <option key={o.key} value={i}>
              {o.title} at {new Date(o.started).toLocaleString()}
            </option>
          ))}
        </select>
      </label>
      <p class="scale">{((t1 - t0) / 1000).toFixed(2)} s from the first event to the last</p>
      <ol class="timeline" aria-label="Resource actions over time">
        {bars.map((b, i) => (
          <li key={i}>
            <span class="tl-name" title={b.type}>
              {b.logicalId} <span class="muted">{b.action}</span>
            </span>
            <span class="tl-track">
              <span
                class={`tl-bar ${toneOf(b.status)}${b.end === undefined ? ' running' : ''}`}
                data-status={b.status}
                style={{ left: pct(b.start), width: `max(4px, calc(${pct(b.end ?? t1)} - ${pct(b.start)}))` }}
                title={`${b.logicalId}: ${b.status}, ${(((b.end ?? t1) - b.start) / 1000).toFixed(2)} s`}
              />
            </span>
            <span class="tl-status">{b.status}</span>
          </li>
        ))}
      </ol>
    </>
  );
}
