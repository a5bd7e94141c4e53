// IP addresses and CIDR blocks in attribute values: inside the subnet's CIDR where AWS takes them from it (an ENI's
// or instance's private addresses), the addresses a template asked for, and stable per resource otherwise.
import type { AttributeContext } from './attributeContext.js';
import { DIGITS, stableChars } from './random.js';

const toInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + (Number(part) & 255), 0);
const toIp = (n: number) => [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');

/** The `index`-th stable host address of a CIDR block, skipping the five AWS reserves (network, +1..+3, broadcast). */
export function ipInCidr(cidr: string, seed: string, index = 0): string | undefined {
  const match = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
  if (!match) return undefined;
  const bits = Number(match[2]);
  const size = 2 ** (32 - bits);
  if (bits > 28) return undefined;
  const base = toInt(match[1]) - (toInt(match[1]) % size);
  const usable = size - 5;
  const start = Number(stableChars(6, DIGITS, 'host', seed)) % usable;
  return toIp(base + 4 + ((start + index) % usable));
}

/** A stable address: private (10.x) or public (3.x), from the resource's physical id. */
export function stableIp(c: AttributeContext, kind: 'private' | 'public', salt = ''): string {
  const digits = stableChars(9, DIGITS, kind, salt, c.physicalId);
  const octet = (i: number) => String((Number(digits.slice(i * 3, i * 3 + 3)) % 254) + 1);
  return kind === 'private' ? `10.0.${octet(0)}.${octet(1)}` : `3.${octet(0)}.${octet(1)}.${octet(2)}`;
}

/** The CIDR block of the subnet a resource is placed in (its SubnetId, or its first network interface's). */
export function subnetCidr(c: AttributeContext): string | undefined {
  const interfaces = c.properties.NetworkInterfaces;
  const first = Array.isArray(interfaces) ? (interfaces[0] as Record<string, unknown> | undefined) : undefined;
  const subnetId = c.properties.SubnetId ?? first?.SubnetId;
  if (typeof subnetId !== 'string') return undefined;
  const cidr = c.lookup?.('AWS::EC2::Subnet', subnetId)?.CidrBlock;
  return typeof cidr === 'string' ? cidr : undefined;
}

/** A private address in the resource's subnet (or a stable 10.x one when the subnet is unknown). */
export function privateAddress(c: AttributeContext, index = 0): string {
  const cidr = subnetCidr(c);
  return (
    (cidr && ipInCidr(cidr, c.physicalId, index)) ??
    (index === 0 ? stableIp(c, 'private') : stableIp(c, 'private', String(index)))
  );
}

interface AddressSpec {
  PrivateIpAddress?: unknown;
  Primary?: unknown;
}

/** AWS::EC2::NetworkInterface: the primary address asked for (or assigned), then the secondary ones. */
export function interfaceAddresses(c: AttributeContext): { primary: string; secondary: string[] } {
  const specs = Array.isArray(c.properties.PrivateIpAddresses)
    ? (c.properties.PrivateIpAddresses as (AddressSpec | null | undefined)[])
    : [];
  const isPrimary = (s: AddressSpec | null | undefined) => s?.Primary === true || s?.Primary === 'true';
  const asked = specs.find(isPrimary)?.PrivateIpAddress ?? c.properties.PrivateIpAddress;
  const primary = typeof asked === 'string' ? asked : privateAddress(c);
  const secondary = specs
    .filter((s) => !isPrimary(s) && typeof s?.PrivateIpAddress === 'string' && s.PrivateIpAddress !== primary)
    .map((s) => s!.PrivateIpAddress as string);
  const askedCount = Number(c.properties.SecondaryPrivateIpAddressCount ?? 0);
  const count = Number.isInteger(askedCount) ? Math.min(askedCount, 49) : 0;
  for (let i = 1; secondary.length < count && i < 256; i++) {
    const next = privateAddress(c, i);
    if (next !== primary && !secondary.includes(next)) secondary.push(next);
  }
  return { primary, secondary };
}

/** Attribute names that hold one IPv4 address, and whether it is a public one. */
export function ipKind(attr: string): 'private' | 'public' | undefined {
  const last = attr.slice(attr.lastIndexOf('.') + 1);
  if (!/(^|[a-z])(Ip|IpAddress)$/.test(last) || /Ipv6|Type$/.test(last)) return undefined;
  return /Private/.test(last)
    ? 'private'
    : /Public|Egress|Ingest|Static/.test(last) || last === 'Ip'
      ? 'public'
      : 'private';
}
