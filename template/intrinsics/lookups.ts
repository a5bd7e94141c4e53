// Fn::FindInMap, Fn::GetAZs and Fn::Cidr.
import type { EvalContext } from './context.js';
import { templateError } from './context.js';
import type { Evaluate } from './context.js';

function findInMap(arg: unknown, ctx: EvalContext, evaluate: Evaluate): unknown {
  if (!Array.isArray(arg) || arg.length < 3 || arg.length > 4) {
    throw templateError(
      'every Fn::FindInMap object requires three parameters, the map name, map key and the attribute for return value',
    );
  }
  const [map, top, second] = arg.slice(0, 3).map((a) => {
    const v = evaluate(a, ctx);
    return typeof v === 'number' ? String(v) : v;
  });
  const fallback = arg[3] as { DefaultValue?: unknown } | undefined;
  const mapping = typeof map === 'string' ? ctx.model.mappings[map] : undefined;
  if (!mapping) {
    if (fallback && 'DefaultValue' in fallback) return evaluate(fallback.DefaultValue, ctx);
    throw templateError(`Mapping named '${String(map)}' is not present in the 'Mappings' section of template.`);
  }
  const value =
    typeof top === 'string' && typeof second === 'string'
      ? (mapping[top] as Record<string, unknown> | undefined)?.[second]
      : undefined;
  if (value === undefined) {
    if (fallback && 'DefaultValue' in fallback) return evaluate(fallback.DefaultValue, ctx);
    throw templateError(`Unable to get mapping for ${String(map)}::${String(top)}::${String(second)}`);
  }
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
}

function getAZs(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string[] {
  const value = evaluate(arg, ctx);
  const region = value === '' || value === undefined || value === null ? String(ctx.pseudo['AWS::Region']) : value;
  if (typeof region !== 'string') throw templateError('Fn::GetAZs requires a region string.');
  return ctx.availabilityZones(region);
}

function ipv4ToBigInt(ip: string): bigint | undefined {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function ipv6ToBigInt(ip: string): bigint | undefined {
  const [head, tail] = ip.split('::') as (string | undefined)[];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

function formatIp(value: bigint, v6: boolean): string {
  if (!v6) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 255n)).join('.');
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((value >> s) & 0xffffn).toString(16));
  const text = groups.join(':');
  const zeros = /(?:^|:)0(?::0)+(?::|$)/.exec(text);
  if (!zeros) return text;
  const longest = [...text.matchAll(/(?:^|:)0(?::0)+(?::|$)/g)].sort((a, b) => b[0].length - a[0].length)[0];
  return text.slice(0, longest.index) + '::' + text.slice(longest.index + longest[0].length);
}

function cidr(arg: unknown, ctx: EvalContext, evaluate: Evaluate): string[] {
  const usage = 'Fn::Cidr requires three parameters: an ipBlock, a count and the cidrBits.';
  if (!Array.isArray(arg) || arg.length !== 3) throw templateError(usage);
  const [block, countValue, bitsValue] = arg.map((a) => evaluate(a, ctx));
  const count = Number(countValue);
  const bits = Number(bitsValue);
  if (typeof block !== 'string' || !Number.isInteger(count) || !Number.isInteger(bits)) throw templateError(usage);
  const [ip, prefixText] = block.split('/');
  const v6 = ip.includes(':');
  const width = v6 ? 128 : 32;
  const base = v6 ? ipv6ToBigInt(ip) : ipv4ToBigInt(ip);
  const prefix = Number(prefixText);
  const subnetPrefix = width - bits;
  if (
    base === undefined ||
    !Number.isInteger(prefix) ||
    count < 1 ||
    count > 256 ||
    bits < 1 ||
    subnetPrefix < prefix
  ) {
    throw templateError(`Invalid CIDR block or parameters for Fn::Cidr: ${block}`);
  }
  if (BigInt(count) > 1n << BigInt(subnetPrefix - prefix)) {
    throw templateError(`Fn::Cidr cannot allocate ${count} subnets of ${bits} bits in ${block}`);
  }
  const size = 1n << BigInt(bits);
  const start = (base >> BigInt(width - prefix)) << BigInt(width - prefix);
  return Array.from({ length: count }, (_, i) => `${formatIp(start + BigInt(i) * size, v6)}/${subnetPrefix}`);
}

export const LOOKUP_FUNCTIONS = {
  'Fn::FindInMap': findInMap,
  'Fn::GetAZs': getAZs,
  'Fn::Cidr': cidr,
};
