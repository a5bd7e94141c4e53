// The change model of a change set: which resources are added, removed or modified between the deployed template
// and the new one, with Replacement, Scope and Details as DescribeChangeSet reports them.
import { isDeepStrictEqual } from 'node:util';
import type { PreparedTemplate } from './index.js';
import { referencedNames } from './graph.js';

export interface DeployedResource {
  logicalId: string;
  type: string;
  physicalId?: string;
  deletionPolicy?: string;
}

export type RecreationOf = (type: string, property: string) => 'Never' | 'Conditionally' | 'Always';

interface Detail {
  Target: { Attribute: string; Name?: string; RequiresRecreation: string };
  Evaluation: 'Static' | 'Dynamic';
  ChangeSource: string;
  CausingEntity?: string;
}

export function resourceChanges(
  before: PreparedTemplate | undefined,
  after: PreparedTemplate,
  deployed: DeployedResource[],
  recreation: RecreationOf,
): Record<string, unknown>[] {
  const deployedById = new Map(deployed.map((d) => [d.logicalId, d]));
  const changedParams = new Set(after.parameters.filter((p) => before?.parameters.find((q) => q.key === p.key)?.raw !== p.raw).map((p) => p.key));
  const changes: Record<string, unknown>[] = [];
  const replaced = new Set<string>();
  for (const id of after.graph.order) {
    const def = after.model.resources.get(id)!;
    const old = deployedById.get(id);
    const oldDef = before?.model.resources.get(id);
    if (!old || !oldDef) {
      changes.push({ Action: 'Add', LogicalResourceId: id, ResourceType: def.type, Scope: [], Details: [] });
      continue;
    }
    const details: Detail[] = [];
    const props = new Set([...Object.keys(def.properties), ...Object.keys(oldDef.properties)]);
    for (const name of props) {
      const recreate = recreation(def.type, name);
      const target = { Attribute: 'Properties', Name: name, RequiresRecreation: recreate };
      if (!isDeepStrictEqual(def.properties[name], oldDef.properties[name])) {
        details.push({ Target: target, Evaluation: 'Static', ChangeSource: 'DirectModification' });
        continue;
      }
      for (const ref of referencedNames(def.properties[name])) {
        if (changedParams.has(ref)) details.push({ Target: target, Evaluation: 'Static', ChangeSource: 'ParameterReference', CausingEntity: ref });
        else if (replaced.has(ref)) {
          details.push({ Target: target, Evaluation: 'Dynamic', ChangeSource: 'DirectModification' });
          details.push({ Target: target, Evaluation: 'Static', ChangeSource: 'ResourceReference', CausingEntity: ref });
        }
      }
    }
    const scope = details.length ? ['Properties'] : [];
    if (!isDeepStrictEqual(def.metadata, oldDef.metadata)) {
      scope.push('Metadata');
      details.push({ Target: { Attribute: 'Metadata', RequiresRecreation: 'Never' }, Evaluation: 'Static', ChangeSource: 'DirectModification' });
    }
    if (!details.length) continue;
    const replacement = details.some((d) => d.Target.RequiresRecreation === 'Always' && d.Evaluation === 'Static')
      ? 'True'
      : details.some((d) => d.Target.RequiresRecreation !== 'Never') ? 'Conditional' : 'False';
    if (replacement === 'True') replaced.add(id);
    changes.push({
      Action: 'Modify', LogicalResourceId: id, PhysicalResourceId: old.physicalId, ResourceType: def.type,
      Replacement: replacement, Scope: scope, Details: details,
      ...(replacement === 'True' ? { PolicyAction: 'ReplaceAndDelete' } : {}),
    });
  }
  for (const old of deployed) {
    if (after.active.has(old.logicalId)) continue;
    const retained = old.deletionPolicy === 'Retain' || old.deletionPolicy === 'RetainExceptOnCreate';
    changes.push({
      Action: 'Remove', LogicalResourceId: old.logicalId, PhysicalResourceId: old.physicalId, ResourceType: old.type,
      PolicyAction: retained ? 'Retain' : 'Delete', Scope: [], Details: [],
    });
  }
  return changes.map((ResourceChange) => ({ Type: 'Resource', ResourceChange }));
}
