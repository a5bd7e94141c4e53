// Outputs and exports at the end of a create or update: evaluated, checked for export-name conflicts, stored.
import type { StackOutput } from '../../storage/index.js';
import { evaluateIn, type Runtime } from '../runtime.js';

function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Evaluates the Outputs; throws with AWS's reason when a value or an export cannot be produced. A refactor checked
 * its export names across all its stacks when it was created (an export may move between them), so it skips the
 * check of the owner (`ownerChecked`).
 */
export function evaluateOutputs(rt: Runtime, ownerChecked = true): StackOutput[] {
  const outputs: StackOutput[] = [];
  for (const def of rt.template.model.outputs) {
    if (def.condition !== undefined && !rt.template.conditions.get(def.condition)) continue;
    const out: StackOutput = { OutputKey: def.logicalId, OutputValue: asText(evaluateIn(rt, def.value)) };
    if (def.description !== undefined) out.Description = asText(evaluateIn(rt, def.description));
    if (def.exportName !== undefined) out.ExportName = asText(evaluateIn(rt, def.exportName));
    outputs.push(out);
  }
  if (ownerChecked) checkExportNames(rt, outputs);
  return outputs;
}

function checkExportNames(rt: Runtime, outputs: StackOutput[]): void {
  const seen = new Set<string>();
  for (const o of outputs) {
    if (!o.ExportName) continue;
    if (seen.has(o.ExportName)) throw new Error(`Template format error: duplicate Export names ${o.ExportName}`);
    seen.add(o.ExportName);
    const owner = rt.store.exports.get(rt.stack.account, rt.stack.region, o.ExportName);
    if (owner && owner.stackId !== rt.stack.stackId) {
      const ownerName = rt.store.stacks.byId(owner.stackId)?.name ?? owner.stackId;
      throw new Error(`Export with name ${o.ExportName} is already exported by stack ${ownerName}`);
    }
  }
}

/**
 * Exports this stack would drop, or change the value of, while another stack still imports them: AWS's refusal
 * text, or undefined. `kept` maps each export the stack keeps to its new value (none for a delete). AWS words a
 * changed value "Export <name> cannot be updated as it is in use by <stack>" (public console output, e.g.
 * linz/geostore#630) and a dropped one "... cannot be deleted ...".
 */
export function exportsInUse(rt: Runtime, kept: Map<string, string>): string | undefined {
  const blocked: string[] = [];
  for (const e of rt.store.exports.byStack(rt.stack.stackId)) {
    const value = kept.get(e.name);
    if (value === e.value) continue;
    const importers = rt.store.exports
      .importers(rt.stack.account, rt.stack.region, e.name)
      .filter((id) => id !== rt.stack.stackId)
      .map((id) => rt.store.stacks.byId(id)?.name ?? id);
    const verb = value === undefined ? 'deleted' : 'updated';
    if (importers.length)
      blocked.push(`Export ${e.name} cannot be ${verb} as it is in use by ${importers.join(' and ')}`);
  }
  return blocked.length ? blocked.join(', ') : undefined;
}

/** Stores outputs, exports and imports of a stack that reached a complete status. */
export function publishOutputs(rt: Runtime, outputs: StackOutput[]): void {
  const { store, stack } = rt;
  stack.doc.outputs = outputs;
  store.transaction(() => {
    store.exports.removeByStack(stack.stackId);
    for (const o of outputs) {
      if (o.ExportName)
        store.exports.put(stack.account, stack.region, {
          name: o.ExportName,
          stackId: stack.stackId,
          value: o.OutputValue,
        });
    }
    store.exports.setImports(stack.account, stack.region, stack.stackId, rt.imports);
  });
}
