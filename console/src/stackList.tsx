// The stacks of every account and region: filters, search, nested stacks as a tree under their parent, live status.
import { useMemo, useState } from 'preact/hooks';
import type { StackRow } from './api.js';
import { Status, toneOf } from './status.js';
import { VirtualList } from './virtualList.js';

const VIEWS = {
  active: (s: StackRow) => s.StackStatus !== 'DELETE_COMPLETE',
  'in progress': (s: StackRow) => s.StackStatus.endsWith('_IN_PROGRESS'),
  failed: (s: StackRow) => toneOf(s.StackStatus) === 'error',
  deleted: (s: StackRow) => s.StackStatus === 'DELETE_COMPLETE',
  all: () => true,
};
type View = keyof typeof VIEWS;

interface TreeRow {
  stack: StackRow;
  depth: number;
}

/** Parents before their nested stacks, each child indented under its parent; newest roots first. */
function tree(stacks: StackRow[]): TreeRow[] {
  const ids = new Set(stacks.map((s) => s.StackId));
  const children = new Map<string, StackRow[]>();
  for (const s of stacks) {
    if (s.ParentId && ids.has(s.ParentId)) children.set(s.ParentId, [...(children.get(s.ParentId) ?? []), s]);
  }
  const out: TreeRow[] = [];
  const visit = (s: StackRow, depth: number) => {
    out.push({ stack: s, depth });
    for (const c of children.get(s.StackId) ?? []) visit(c, depth + 1);
  };
  const newest = (a: StackRow, b: StackRow) => b.CreationTime.localeCompare(a.CreationTime);
  for (const s of [...stacks].sort(newest)) if (!s.ParentId || !ids.has(s.ParentId)) visit(s, 0);
  return out;
}

const distinct = (values: string[]) => [...new Set(values)].sort();

export function StackList({ stacks }: { stacks: StackRow[] }) {
  const [view, setView] = useState<View>('active');
  const [search, setSearch] = useState('');
  const [account, setAccount] = useState('');
  const [region, setRegion] = useState('');
  const rows = useMemo(() => {
    const q = search.toLowerCase();
    const shown = stacks.filter(
      (s) =>
        VIEWS[view](s) &&
        (!account || s.Account === account) &&
        (!region || s.Region === region) &&
        (!q || s.StackName.toLowerCase().includes(q) || s.StackStatus.toLowerCase().includes(q)),
    );
    return q ? shown.map((stack) => ({ stack, depth: 0 })) : tree(shown);
  }, [stacks, view, search, account, region]);
  return (
    <section aria-labelledby="stacks-title">
      <h1 id="stacks-title">
        Stacks <span class="count">({rows.length})</span>
      </h1>
      <div class="filters" role="search">
        <label>
          Search <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        </label>
        <label>
          Account{' '}
          <select value={account} onChange={(e) => setAccount(e.currentTarget.value)}>
            <option value="">All</option>
            {distinct(stacks.map((s) => s.Account)).map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label>
          Region{' '}
          <select value={region} onChange={(e) => setRegion(e.currentTarget.value)}>
            <option value="">All</option>
            {distinct(stacks.map((s) => s.Region)).map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <label>
          Show{' '}
          <select value={view} onChange={(e) => setView(e.currentTarget.value as View)}>
            {Object.keys(VIEWS).map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </label>
      </div>
      <div class="thead stackrow" aria-hidden="true">
        <span>Stack name</span>
        <span>Status</span>
        <span>Account / region</span>
        <span>Created</span>
      </div>
      {rows.length ? (
        <VirtualList
          items={rows}
          rowHeight={32}
          height={Math.max(240, innerHeight - 220)}
          label="Stacks"
          row={({ stack, depth }) => (
            <div class="stackrow" data-stack={stack.StackName}>
              <a
                href={`#/stack/${encodeURIComponent(stack.StackId)}`}
                style={{ paddingLeft: `${depth * 18}px` }}
                title={stack.StackStatusReason}
              >
                {depth ? '└ ' : ''}
                {stack.StackName}
              </a>
              <Status status={stack.StackStatus} />
              <span>
                {stack.Account} / {stack.Region}
              </span>
              <time dateTime={stack.CreationTime}>{new Date(stack.CreationTime).toLocaleString()}</time>
            </div>
          )}
        />
      ) : (
        <p class="empty">No stacks to show. Deploy one with the AWS CLI, the SDK or the CDK pointed at this server.</p>
      )}
    </section>
  );
}
