// Fn::GetAtt values for a new resource: one realistic value for every attribute the spec lists.
//
// Order of resolution for each attribute: a per-type override (below), the identifier (physical id), the name,
// the property of the same name (Subnet.VpcId, Parameter.Value), the resource's own ARN, an id in the service's
// format, then a value by type. Object-typed attributes (`Endpoint`) are assembled from their dotted children.
import { resourceSpec, type PropertyType, type ResourceSpec } from '../spec.js';
import { dnsLabel, resourceArn, type AttributeContext } from './attributeContext.js';
import { ATTRIBUTE_OVERRIDES } from './attributeOverrides.js';
import { REF_IS_ARN, dnsSuffix, ec2Id, isArnName, kebab, serviceOf, type AccountContext } from './identity.js';
import { HEX, randomChars, stableHex, type RandomSource } from './random.js';
import { ipKind, privateAddress, stableIp } from './addresses.js';
import { fromSample, isArnSample } from './samples.js';

export interface AttributeArgs {
  readonly type: string;
  readonly physicalId: string;
  /** The physical name, for types with a name property. */
  readonly name?: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly ctx: AccountContext;
  readonly random: RandomSource;
  /** Creation time, for date attributes (defaults to now). */
  readonly now?: Date;
  /** The properties of another resource of the account (a subnet's CidrBlock for addresses inside it). */
  readonly lookup?: AttributeContext['lookup'];
}

/** Attribute names (or name endings) that hold EC2-style ids, with their prefixes. */
const ID_PREFIXES: Readonly<Record<string, string>> = {
  VpcId: 'vpc',
  SubnetId: 'subnet',
  GroupId: 'sg',
  SecurityGroupId: 'sg',
  DefaultSecurityGroup: 'sg',
  DefaultNetworkAcl: 'acl',
  NetworkAclId: 'acl',
  NetworkAclAssociationId: 'aclassoc',
  InstanceId: 'i',
  AllocationId: 'eipalloc',
  AssociationId: 'eipassoc',
  RouteTableId: 'rtb',
  InternetGatewayId: 'igw',
  NatGatewayId: 'nat',
  NetworkInterfaceId: 'eni',
  VolumeId: 'vol',
  ImageId: 'ami',
  TransitGatewayId: 'tgw',
  VpcEndpointId: 'vpce',
  LaunchTemplateId: 'lt',
  PrefixListId: 'pl',
  KeyPairId: 'key',
};

const ID_SUFFIXES = Object.entries(ID_PREFIXES);

interface Plan {
  /** Scalar and list attributes, resolved one by one. */
  readonly scalars: readonly [string, PropertyType][];
  /** Object attributes with their direct dotted children. */
  readonly objects: readonly [string, readonly string[]][];
}

const plans = new WeakMap<ResourceSpec, Plan>();

function planFor(spec: ResourceSpec): Plan {
  let plan = plans.get(spec);
  if (plan) return plan;
  const entries = Object.entries(spec.attributes);
  const isObject = (t: PropertyType) => t.kind === 'ref' || t.kind === 'json';
  const scalars = entries.filter(([, t]) => !isObject(t));
  const objects = entries
    .filter(([, t]) => isObject(t))
    .map(([attr]): [string, string[]] => {
      const prefix = `${attr}.`;
      return [
        attr,
        scalars.map(([k]) => k).filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('.')),
      ];
    });
  plan = { scalars, objects };
  plans.set(spec, plan);
  return plan;
}

/** A value for every attribute of `type` (empty for types the spec does not know). */
export function attributeValues(args: AttributeArgs): Record<string, unknown> {
  const spec = resourceSpec(args.type);
  if (!spec) return {};
  const c: AttributeContext = { ...args, spec, now: args.now ?? new Date(), dns: dnsSuffix(args.ctx.partition) };
  const out: Record<string, unknown> = {};
  const plan = planFor(spec);
  for (const [attr, type] of plan.scalars) out[attr] = valueFor(c, attr, type);
  for (const [attr, children] of plan.objects)
    out[attr] = override(c, attr) ?? echo(c, attr) ?? assemble(out, attr, children);
  return out;
}

function valueFor(c: AttributeContext, attr: string, type: PropertyType): unknown {
  const value =
    override(c, attr) ??
    listForm(c, attr, type) ??
    identifier(c, attr) ??
    nameOf(c, attr) ??
    echo(c, attr) ??
    documented(c, attr) ??
    ownArn(c, attr) ??
    byName(c, attr, type) ??
    byType(c, attr, type);
  const coerced = coerce(value, type, c);
  // whatever the name suggested, the value has the type the spec declares
  return conforms(coerced, type) ? coerced : byType(c, attr, type);
}

// ElastiCache documents `ReadEndPoint.Addresses.List` beside `ReadEndPoint.Addresses`: the same values as a list.
function listForm(c: AttributeContext, attr: string, type: PropertyType): unknown {
  if (type.kind !== 'list' || !attr.endsWith('.List')) return undefined;
  const base = attr.slice(0, -'.List'.length);
  const baseType = c.spec.attributes[base] as PropertyType | undefined;
  if (!baseType) return undefined;
  const value = valueFor(c, base, baseType);
  return typeof value === 'string' ? value.split(',') : undefined;
}

function override(c: AttributeContext, attr: string): unknown {
  return ATTRIBUTE_OVERRIDES[c.type]?.[attr]?.(c);
}

function identifier(c: AttributeContext, attr: string): unknown {
  // The physical id is the value of the Ref identifier (a compound one has no single attribute to match).
  // (a type referred to by its ARN has an ARN for physical id, not its id)
  const id = c.spec.refIdentifier.length === 1 && !REF_IS_ARN.has(c.type) ? c.spec.refIdentifier[0] : undefined;
  // Dotted children that repeat the identifier (`VpcEncryptionControl.VpcId`) are the resource's own id too.
  // An ARN identifier whose Ref is an id in the page's format (an IoT topic rule destination) keeps its own ARN.
  if (id !== undefined && isArnName(id) && !c.physicalId.startsWith('arn:')) return undefined;
  return id !== undefined && (id === attr || attr.endsWith(`.${id}`)) ? c.physicalId : undefined;
}

function nameOf(c: AttributeContext, attr: string): unknown {
  if (c.name === undefined) return undefined;
  const short = c.type.split('::')[2];
  const names = [c.spec.nameProperty, `${short}Name`, 'Name'];
  return names.includes(attr) ? c.name : undefined;
}

// An attribute named like a property returns the property's value (dotted names walk into it).
function echo(c: AttributeContext, attr: string): unknown {
  if (!attr.includes('.')) return c.properties[attr] ?? undefined;
  let value: unknown = c.properties;
  for (const part of attr.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value === null ? undefined : value;
}

function isOwnArn(c: AttributeContext, attr: string): boolean {
  const short = c.type.split('::')[2];
  return attr === 'Arn' || attr === `${short}Arn` || (c.spec.primaryIdentifier.includes(attr) && isArnName(attr));
}

function ownArn(c: AttributeContext, attr: string): unknown {
  return isOwnArn(c, attr) ? resourceArn(c) : undefined;
}

// The format of the sample AWS's user guide shows for the attribute; the resource's own ARN keeps the spec's
// template where it has one.
function documented(c: AttributeContext, attr: string): unknown {
  const sample = c.spec.attributeSamples[attr];
  if (sample === undefined || (isArnSample(sample) && c.spec.arnTemplate && isOwnArn(c, attr))) return undefined;
  const label = c.name ?? c.physicalId.split(/[/:|]/).pop() ?? c.physicalId;
  return fromSample(sample, { ctx: c.ctx, random: c.random, label });
}

function byName(c: AttributeContext, attr: string, type: PropertyType): unknown {
  const prefix = ID_PREFIXES[attr] ?? ID_SUFFIXES.find(([k]) => attr.endsWith(k))?.[1];
  if (prefix) return ec2Id(prefix, c.random);
  const ip = type.kind === 'string' ? ipKind(attr) : undefined;
  if (ip) return ip === 'private' ? privateAddress(c) : stableIp(c, 'public', attr);
  if (type.kind === 'string' && /(^|\.|[a-z])CidrBlock$/.test(attr) && !/Ipv6/.test(attr)) return '10.0.0.0/16';
  const last = attr.slice(attr.lastIndexOf('.') + 1);
  if (isArnName(last)) return derivedArn(c, last.slice(0, -3));
  if (/(Time|Date|Timestamp|ValidTill|Until)$/.test(attr)) return c.now.toISOString();
  if (/AvailabilityZone$/.test(attr)) return `${c.ctx.region}a`;
  if (/(DomainName|DnsName|DNSName|Hostname)$/i.test(attr))
    return `${dnsLabel(c)}.${serviceOf(c.type)}.${c.ctx.region}.${c.dns}`;
  if (/(Url|URL|Endpoint|Address)$/.test(attr)) return endpointFor(c, attr);
  if (/(Id|ID)$/.test(attr)) return randomChars(c.random, 20, HEX);
  return undefined;
}

function derivedArn(c: AttributeContext, what: string): string {
  const resource = kebab(what || 'resource');
  return `arn:${c.ctx.partition}:${serviceOf(c.type)}:${c.ctx.region}:${c.ctx.account}:${resource}/${dnsLabel(c)}`;
}

function endpointFor(c: AttributeContext, attr: string): string {
  const host = `${dnsLabel(c)}.${serviceOf(c.type)}.${c.ctx.region}.${c.dns}`;
  return /(Url|URL)$/.test(attr) ? `https://${host}` : host;
}

function byType(c: AttributeContext, attr: string, type: PropertyType): unknown {
  switch (type.kind) {
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'list':
      return [];
    case 'map':
      return {};
    case 'date-time':
      return c.now.toISOString();
    default:
      // Unknown strings: stable, derived from the physical id.
      return stableHex(20, c.type, c.physicalId, attr);
  }
}

function coerce(value: unknown, type: PropertyType, c: AttributeContext): unknown {
  if (typeof value === 'string' && type.kind === 'string') return value;
  if (type.kind === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  if (type.kind === 'integer' || type.kind === 'number') {
    // a time typed as a number is epoch seconds
    if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return Math.floor(c.now.getTime() / 1000);
    const n = typeof value === 'string' ? Number(value) : value;
    return typeof n === 'number' && Number.isFinite(n) ? n : value;
  }
  if (type.kind === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  if (type.kind === 'list' && typeof value === 'string') return [value];
  return value;
}

function conforms(value: unknown, type: PropertyType): boolean {
  switch (type.kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    default:
      return true;
  }
}

function assemble(out: Record<string, unknown>, attr: string, children: readonly string[]): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  for (const child of children) obj[child.slice(attr.length + 1)] = out[child];
  return obj;
}
