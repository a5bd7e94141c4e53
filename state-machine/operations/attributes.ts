// Before any resource is touched, AWS checks every Fn::GetAtt against the resource types' attributes and fails
// the stack (no resource events) with "[Error] /path/Fn::GetAtt: Resource type T does not support attribute {A}".
import { providerFor } from '../../resources/registry.js';
import type { Runtime } from '../runtime.js';
import { isList, entriesOf } from '../../domain/values.js';

function findGetAtts(value: unknown, path: string[], out: { path: string; target: string; attribute: unknown }[]) {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => findGetAtts(v, [...path, String(i)], out));
    return;
  }
  for (const [key, arg] of entriesOf(value)) {
    if (key === 'Fn::GetAtt') {
      const parts = typeof arg === 'string' ? [arg.slice(0, arg.indexOf('.')), arg.slice(arg.indexOf('.') + 1)] : arg;
      if (isList(parts) && typeof parts[0] === 'string') {
        out.push({ path: `/${[...path, key].join('/')}`, target: parts[0], attribute: parts[1] });
      }
    }
    findGetAtts(arg, [...path, key], out);
  }
}

export function checkAttributes(rt: Runtime): string | undefined {
  const found: { path: string; target: string; attribute: unknown }[] = [];
  const { model, active } = rt.template;
  for (const id of active) findGetAtts(model.resources.get(id)!.properties, ['Resources', id, 'Properties'], found);
  for (const o of model.outputs) findGetAtts(o.value, ['Outputs', o.logicalId, 'Value'], found);
  for (const g of found) {
    const type = model.resources.get(g.target)?.type;
    if (!type || typeof g.attribute !== 'string') continue;
    if (!providerFor(type).supportsAttribute(type, g.attribute)) {
      return `[Error] ${g.path}: Resource type ${type} does not support attribute {${g.attribute}}`;
    }
  }
  return undefined;
}
