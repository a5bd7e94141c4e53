// A list that renders only the rows in view (plus a margin), so 10,000 events or 1,000 stacks scroll smoothly.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

interface Props<T> {
  items: T[];
  rowHeight: number;
  height: number;
  label: string;
  row: (item: T, index: number) => ComponentChildren;
}

const MARGIN = 10;

export function VirtualList<T>({ items, rowHeight, height, label, row }: Props<T>) {
  const [top, setTop] = useState(0);
  const first = Math.max(0, Math.floor(top / rowHeight) - MARGIN);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + MARGIN);
  return (
    <div
      class="vlist"
      role="list"
      aria-label={label}
      tabIndex={0}
      style={{ height: `${Math.min(height, items.length * rowHeight + 2)}px` }}
      onScroll={(e) => setTop((e.currentTarget as HTMLElement).scrollTop)}
    >
      <div style={{ height: `${items.length * rowHeight}px`, position: 'relative' }}>
        {items.slice(first, last).map((item, i) => (
          <div
            role="listitem"
            class="vrow"
            key={first + i}
            style={{ top: `${(first + i) * rowHeight}px`, height: `${rowHeight}px` }}
          >
            {row(item, first + i)}
          </div>
        ))}
      </div>
    </div>
  );
}
