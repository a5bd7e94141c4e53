// Which existing resource each resource of the new templates is: the ResourceMappings first (Detection MANUAL),
// then the same logical id in the same stack (left where it is), then the same logical id, alone of its type, in
// another named stack (Detection AUTO). Whatever is left over is a resource added or removed, which AWS refuses.
import type { ResourceRecord, StackRecord, RefactorLocation } from '../../storage/index.js';
import type { RefactorView, RefactoredStack } from './context.js';

export interface Match {
  source: ResourceRecord;
  from: RefactoredStack;
  to: RefactoredStack;
  /** Its logical id in `to`'s new template. */
  logicalId: string;
  detection: 'AUTO' | 'MANUAL';
  /** It changes stack or logical id (one left where it is is matched, but moves nothing). */
  moves: boolean;
}

type Mapping = { Source: RefactorLocation; Destination: RefactorLocation };
const list = (items: string[]) => `[${items.join(', ')}]`;

export function matchResources(
  view: RefactorView,
  mappings: Mapping[],
  standing: (stack: StackRecord) => ResourceRecord[],
): { failure: string } | { matches: Match[] } {
  const byName = (name: string) => view.stacks.find((s) => s.stack.name === name || s.stack.stackId === name);
  const sources = new Map<string, { r: ResourceRecord; from: RefactoredStack }>();
  for (const s of view.stacks)
    for (const r of s.isNew ? [] : standing(s.stack)) sources.set(key(s, r.logicalId), { r, from: s });
  const targets = new Map<string, { to: RefactoredStack; logicalId: string }>();
  for (const s of view.stacks) for (const id of s.template.active) targets.set(key(s, id), { to: s, logicalId: id });
  const matches: Match[] = [];
  const take = (sourceKey: string, targetKey: string, detection: Match['detection']) => {
    const { r, from } = sources.get(sourceKey)!;
    const { to, logicalId } = targets.get(targetKey)!;
    sources.delete(sourceKey);
    targets.delete(targetKey);
    const moves = from !== to || r.logicalId !== logicalId;
    matches.push({ source: r, from, to, logicalId, detection, moves });
  };
  for (const m of mappings) {
    const from = byName(m.Source.StackName);
    const to = byName(m.Destination.StackName);
    const sourceKey = from && key(from, m.Source.LogicalResourceId);
    const targetKey = to && key(to, m.Destination.LogicalResourceId);
    if (!sourceKey || !sources.has(sourceKey)) {
      return {
        failure: `Resource [${m.Source.LogicalResourceId}] in ResourceMappings does not exist in source stack [${m.Source.StackName}].`,
      };
    }
    if (!targetKey || !targets.has(targetKey)) {
      return {
        failure: `Resource [${m.Destination.LogicalResourceId}] in ResourceMappings does not exist in the template of destination stack [${m.Destination.StackName}].`,
      };
    }
    take(sourceKey, targetKey, 'MANUAL');
  }
  for (const [targetKey] of [...targets]) if (sources.has(targetKey)) take(targetKey, targetKey, 'AUTO');
  for (const [targetKey, { to, logicalId }] of [...targets]) {
    const same = [...sources].filter(([, s]) => s.r.logicalId === logicalId && s.from !== to);
    if (same.length === 1) take(same[0][0], targetKey, 'AUTO');
  }
  const added = [...targets.values()].map((t) => `${t.to.stack.name}/${t.logicalId}`);
  if (added.length) {
    return {
      failure: `Stack refactor cannot create resources, and the following resources are not in any source stack or ResourceMappings: ${list(added)}.`,
    };
  }
  const removed = [...sources.values()].map((s) => `${s.from.stack.name}/${s.r.logicalId}`);
  if (removed.length) {
    return {
      failure: `Stack refactor cannot delete resources, and the following resources are not in any destination template: ${list(removed)}.`,
    };
  }
  const retyped = matches.filter((m) => m.to.template.model.resources.get(m.logicalId)!.type !== m.source.type);
  if (retyped.length) {
    return {
      failure: `Stack refactor cannot change the type of resources: ${list(retyped.map((m) => `${m.to.stack.name}/${m.logicalId}`))}.`,
    };
  }
  for (const m of matches) m.to.sources.set(m.logicalId, m.source);
  return { matches };
}

const key = (s: RefactoredStack, logicalId: string) => `${s.stack.stackId}\u0000${logicalId}`;
