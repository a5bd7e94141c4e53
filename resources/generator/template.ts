// The IaC generator's templates: each scanned resource written from its actual properties (the world row), with
// AWS's logical ids (`<Service><Resource>`, then the identifier when a type repeats), its deletion and replace
// policies, and write-only properties left out with a warning, since they cannot be read back.
import { stringify } from 'yaml';
import type { GeneratedResourceRecord, GeneratedTemplateRecord, WorldResource } from '../../storage/index.js';
import { resourceSpec } from '../spec.js';
import { WRITE_ONLY } from '../drift/rules.js';

/** A resource's identifier as the IaC generator names it: its primary identifier property → its physical id. */
export function identifierOf(type: string, physicalId: string): Record<string, string> {
  return { [resourceSpec(type)?.primaryIdentifier[0] ?? 'Id']: physicalId };
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
    .join('');

/** `AWS::EC2::SecurityGroup` → `EC2SecurityGroup`; a type that repeats adds each one's identifier (`EC2KeyPairSshkeypair`). */
export function logicalIdsFor(
  items: { type: string; physicalId: string; given?: string }[],
  existing: readonly string[] = [],
): string[] {
  const count = new Map<string, number>();
  for (const i of items) count.set(i.type, (count.get(i.type) ?? 0) + 1);
  const taken = new Set([...existing, ...items.flatMap((i) => (i.given ? [i.given] : []))]);
  return items.map((i) => {
    if (i.given) return i.given;
    const [, service, resource] = i.type.split('::');
    let id = `${service}${resource}`;
    if ((count.get(i.type) ?? 0) > 1) id += pascal(i.physicalId.split(/[/:]/).pop() ?? i.physicalId);
    for (let n = 2; taken.has(id); n++) id = `${id.replace(/\d+$/, '')}${n}`;
    taken.add(id);
    return id;
  });
}

/** What the generator reads of one resource: its properties, less the write-only ones (each a warning). */
export function readResource(
  row: WorldResource | undefined,
): Pick<GeneratedResourceRecord, 'properties' | 'warnings' | 'failure'> {
  if (!row) return { warnings: [], failure: 'Resource not found' };
  const writeOnly = (WRITE_ONLY[row.type] ?? []).filter((p) => row.properties[p] !== undefined);
  const properties = Object.fromEntries(Object.entries(row.properties).filter(([k]) => !writeOnly.includes(k)));
  const warnings = writeOnly.length
    ? [
        {
          Type: 'UNSUPPORTED_PROPERTIES',
          Properties: writeOnly.map((p) => ({
            PropertyPath: `/${p}`,
            Required: resourceSpec(row.type)?.properties[p]?.required ?? false,
            Description: 'This property is write-only and cannot be read from the resource: set it in the template.',
          })),
        },
      ]
    : [];
  return { properties, warnings };
}

/** The policy names TemplateConfiguration takes (RETAIN, DELETE) as a template writes them. */
const policy = (p: string) => (p === 'DELETE' ? 'Delete' : 'Retain');

/** The generated template: the target stack's own resources first (an import keeps them), then the generated ones. */
export function templateOf(
  t: GeneratedTemplateRecord,
  stackTemplate?: Record<string, unknown>,
): Record<string, unknown> {
  const resources: Record<string, unknown> = { ...(stackTemplate?.Resources as Record<string, unknown> | undefined) };
  for (const r of t.resources) {
    if (r.failure) continue;
    resources[r.LogicalResourceId] = {
      Type: r.ResourceType,
      DeletionPolicy: policy(t.deletionPolicy),
      UpdateReplacePolicy: policy(t.updateReplacePolicy),
      Properties: r.properties ?? {},
    };
  }
  return {
    AWSTemplateFormatVersion: '2010-09-09',
    ...(stackTemplate ? { ...stackTemplate, Resources: undefined } : {}),
    Metadata: { ...(stackTemplate?.Metadata as object | undefined), TemplateId: t.id },
    Resources: resources,
  };
}

export function renderTemplate(template: Record<string, unknown>, format: 'JSON' | 'YAML'): string {
  const clean = JSON.parse(JSON.stringify(template)) as Record<string, unknown>;
  return format === 'YAML' ? stringify(clean) : JSON.stringify(clean, null, 2);
}
