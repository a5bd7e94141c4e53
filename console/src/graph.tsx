// The dependency graph of a stack's resources (DependsOn, Ref, GetAtt, Sub), laid out by dagre and coloured by each
// resource's live status: the newest event of each resource wins over the status the graph was read with.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Graph, layout } from '@dagrejs/dagre';
import { get, type StackEvent } from './api.js';
import { toneOf } from './status.js';

interface GraphData {
  nodes: { id: string; type: string; status?: string }[];
  edges: { from: string; to: string; kind: string }[];
}

const NODE_W = 190;
const NODE_H = 58;

function place(data: GraphData) {
  const g = new Graph();
  g.setGraph({ rankdir: 'LR', nodesep: 24, ranksep: 60, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of data.nodes) g.setNode(n.id, { width: NODE_W, height: NODE_H });
  const kinds = new Map<string, string[]>();
  for (const e of data.edges) {
    // a dependency is drawn before (left of) what depends on it, as the deploy runs
    const key = `${e.to}\u0000${e.from}`;
    kinds.set(key, [...(kinds.get(key) ?? []), e.kind]);
    g.setEdge(e.to, e.from);
  }
  layout(g);
  const label = g.graph();
  return {
    width: label.width ?? 0,
    height: label.height ?? 0,
    nodes: data.nodes.map((n) => ({ ...n, x: g.node(n.id).x, y: g.node(n.id).y })),
    edges: g.edges().map((e) => ({
      key: `${e.v}->${e.w}`,
      kinds: kinds.get(`${e.v}\u0000${e.w}`) ?? [],
      points: g.edge(e).points ?? [],
      from: e.w,
      to: e.v,
    })),
  };
}

export function GraphTab({ stackId, events }: { stackId: string; events: StackEvent[] }) {
  const [data, setData] = useState<GraphData>();
  useEffect(() => {
    void get<GraphData>(`/stack/graph?id=${encodeURIComponent(stackId)}`).then(setData);
  }, [stackId]);
  const placed = useMemo(() => (data ? place(data) : undefined), [data]);
  const live = useMemo(() => {
    const latest = new Map<string, string>();
    for (const e of events) if (!latest.has(e.LogicalResourceId)) latest.set(e.LogicalResourceId, e.ResourceStatus);
    return latest;
  }, [events]);
  if (!placed) return <p class="empty">Laying out the graph…</p>;
  if (!placed.nodes.length) return <p class="empty">The template has no resources.</p>;
  return (
    <figure class="graph">
      <svg
        width={placed.width}
        height={placed.height}
        viewBox={`0 0 ${placed.width} ${placed.height}`}
        role="img"
        aria-label={`Dependency graph of ${placed.nodes.length} resources`}
      >
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto">
            <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
          </marker>
        </defs>
        {placed.edges.map((e) => (
          <polyline
            key={e.key}
            class={`edge ${e.kinds.includes('DependsOn') ? 'explicit' : ''}`}
            points={e.points.map((p: { x: number; y: number }) => `${p.x},${p.y}`).join(' ')}
            marker-end="url(#arrow)"
          >
            <title>{`${e.from} → ${e.to} (${e.kinds.join(', ')})`}</title>
          </polyline>
        ))}
        {placed.nodes.map((n) => {
          const status = live.get(n.id) ?? n.status;
          return (
            <g
              key={n.id}
              class={`node ${toneOf(status)}`}
              data-node={n.id}
              data-status={status ?? 'NOT_CREATED'}
              transform={`translate(${n.x - NODE_W / 2},${n.y - NODE_H / 2})`}
              // lower case: SVG's attribute names are case-sensitive, and `tabIndex` on a <g> makes nothing focusable
              tabindex={0}
              role="img"
              aria-label={`${n.id}, ${n.type}, ${status ?? 'not created'}`}
            >
              <rect width={NODE_W} height={NODE_H} rx="6" />
              <text x="10" y="19" class="nid">
                {n.id.length > 24 ? `${n.id.slice(0, 23)}…` : n.id}
              </text>
              <text x="10" y="34" class="ntype">
                {n.type.slice(0, 30)}
              </text>
              <text x="10" y="50" class="nstatus">
                {status ?? 'NOT_CREATED'}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>Arrows run from a resource to those that depend on it; dashed: an explicit DependsOn.</figcaption>
    </figure>
  );
}
