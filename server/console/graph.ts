// The dependency graph the console draws: a stack's resources as nodes (with their live status) and the edges
// DependsOn, Ref, Fn::GetAtt and Fn::Sub make between them, read from the processed template.
import { parseTemplate } from '../../template/parse.js';
import type { ResourceRecord } from '../../storage/index.js';
import { isList, entriesOf } from '../../domain/values.js';

export type EdgeKind = 'DependsOn' | 'Ref' | 'GetAtt' | 'Sub';

export interface GraphNode {
  id: string;
  type: string;
  status?: string;
  physicalId?: string;
}

export interface GraphEdge {
  /** The resource that depends... */
  from: string;
  /** ...on this one. */
  to: string;
  kind: EdgeKind;
}

/** Every resource name a value refers to, with the intrinsic that refers to it. */
function references(value: unknown, out: [string, EdgeKind][] = []): [string, EdgeKind][] {
  if (value === null || typeof value !== 'object') return out;
  if (Array.isArray(value)) {
    for (const v of value) references(v, out);
    return out;
  }
  for (const [key, arg] of entriesOf(value)) {
    if (key === 'Ref' && typeof arg === 'string') out.push([arg, 'Ref']);
    else if (key === 'Fn::GetAtt') {
      const target = typeof arg === 'string' ? arg.split('.')[0] : isList(arg) ? arg[0] : undefined;
      if (typeof target === 'string') out.push([target, 'GetAtt']);
    } else if (key === 'Fn::Sub') {
      const text = typeof arg === 'string' ? arg : isList(arg) ? arg[0] : undefined;
      if (typeof text === 'string') {
        for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) out.push([m[1].trim().split('.')[0], 'Sub']);
      }
      if (isList(arg)) references(arg[1], out);
    } else references(arg, out);
  }
  return out;
}

/** The graph of a template body; resources the stack holds lend their status. An unreadable body has no nodes. */
export function dependencyGraph(body: string, resources: ResourceRecord[]): { nodes: GraphNode[]; edges: GraphEdge[] } {
  let defs: Record<string, unknown>;
  try {
    const doc = parseTemplate(body).doc.Resources;
    defs = doc && typeof doc === 'object' ? (doc as Record<string, unknown>) : {};
  } catch {
    return { nodes: [], edges: [] };
  }
  const held = new Map(resources.map((r) => [r.logicalId, r]));
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const [id, def] of Object.entries(defs)) {
    const d = (def ?? {}) as Record<string, unknown>;
    const r = held.get(id);
    nodes.push({ id, type: String(d.Type), status: r?.status, physicalId: r?.physicalId });
    const seen = new Set<string>();
    const add = (to: string, kind: EdgeKind) => {
      if (to === id || !(to in defs) || seen.has(`${to} ${kind}`)) return;
      seen.add(`${to} ${kind}`);
      edges.push({ from: id, to, kind });
    };
    const dependsOn = typeof d.DependsOn === 'string' ? [d.DependsOn] : Array.isArray(d.DependsOn) ? d.DependsOn : [];
    for (const to of dependsOn) if (typeof to === 'string') add(to, 'DependsOn');
    for (const [to, kind] of references([d.Properties, d.Metadata])) add(to, kind);
  }
  return { nodes, edges };
}
