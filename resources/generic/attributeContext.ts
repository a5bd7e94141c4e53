// What attribute generators see about a new resource, and the helpers they share (its ARN, a DNS label).
import type { ResourceSpec } from '../spec.js';
import { REF_IS_ARN, arnFor, type AccountContext } from './identity.js';
import { stableHex, type RandomSource } from './random.js';

export interface AttributeContext {
  readonly type: string;
  readonly spec: ResourceSpec;
  readonly physicalId: string;
  readonly name?: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly ctx: AccountContext;
  readonly random: RandomSource;
  readonly now: Date;
  /** The partition's DNS suffix (`amazonaws.com`). */
  readonly dns: string;
  /** The properties of another resource of the account (a subnet's CidrBlock), when the caller can look. */
  readonly lookup?: (type: string, physicalId: string) => Readonly<Record<string, unknown>> | undefined;
}

/** The resource's own ARN from the spec's template, filled from properties, the name and the physical id. */
export function resourceArn(c: AttributeContext): string {
  const fallback = c.name ?? c.physicalId;
  if (fallback.startsWith('arn:')) return fallback;
  // a type referred to by its ARN (REF_IS_ARN) has it for physical id
  if (REF_IS_ARN.has(c.type)) return c.physicalId;
  const values: Record<string, unknown> = { ...c.properties };
  for (const id of c.spec.primaryIdentifier) values[id] ??= id === c.spec.nameProperty ? c.name : c.physicalId;
  return arnFor(c.spec, values, fallback, c.ctx);
}

/** A DNS-safe label derived from the name (or physical id). */
export function dnsLabel(c: AttributeContext): string {
  const base = (c.name ?? c.physicalId).split(/[/:|]/).pop() ?? '';
  const label = base
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return label || stableHex(12, c.type, c.physicalId);
}
