// The formats AWS's user guide shows for Ref and Fn::GetAtt values (resources/documentedAttributes.json, from the
// guide's Return values sections by scripts/gen-doc-attributes.mjs), as patterns a generated value must match.
// A sample's fixed parts (an ARN's service, region and account fields and its resource type, a host's service labels
// and region, an id's prefix and alphabet) must be the same; its example parts (names, ids, digits) may differ.
import { readFileSync } from 'node:fs';

export interface DocumentedType {
  attributes: string[];
  ref?: string;
  samples?: Record<string, string>;
}

export const DOCUMENTED = JSON.parse(
  readFileSync(new URL('../../resources/documentedAttributes.json', import.meta.url), 'utf8'),
) as { source: string; types: Partial<Record<string, DocumentedType>> };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const REGION = /^([a-z]{2}(-gov)?-[a-z]+-\d|region|<region>)$/;
const ACCOUNT = /^(\d{10,12}|account-id|account|aws)$/;
/** A sample part that is an example value rather than a fixed word: it holds a digit or an upper-case letter. */
const exampleLike = (s: string) => /[0-9A-Z_]/.test(s);

/** The pattern of a sample ARN: `arn:aws:ecr:eu-west-1:123456789012:repository/test-repository`. */
function arnPattern(sample: string): RegExp | undefined {
  const m = /^arn:aws:([a-z0-9-]+):([^:]*):([^:]*)(?::(.*))?$/.exec(sample);
  if (!m) return undefined;
  const [, service, region, account, resource = ''] = m;
  const regionPart = region ? '[a-z0-9-]+' : '';
  const accountPart = account ? '(\\d{12}|aws)' : '';
  const sep = /^([a-z][a-zA-Z-]*)([/:])/.exec(resource);
  // the resource's leading word is its type (`repository/`, `rule/`, `plan:`), unless it reads as an example value
  const typePart = sep && !exampleLike(sep[1]!) ? escape(sep[0]) : '';
  return new RegExp(
    `^arn:aws:${escape(service!)}:${regionPart}:${accountPart}${resource ? `:${typePart}.+` : '(:.*)?'}$`,
  );
}

/** The pattern of a sample host or URL: `https://abcdef.execute-api.us-west-2.amazonaws.com`. */
function hostPattern(sample: string): RegExp | undefined {
  const m = /^(https?:\/\/|wss:\/\/)?([a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+){2,})(\/.*)?$/.exec(sample);
  if (!m || !/\.(com|net|aws|cn)$/.test(m[2]!)) return undefined;
  const [, scheme = '', host, path] = m;
  const labels = host!.split('.').map((label, i) => {
    if (REGION.test(label)) return '[a-z]{2}(-gov)?-[a-z]+-\\d';
    if (ACCOUNT.test(label) && label !== 'aws') return '\\d{12}';
    return i === 0 || exampleLike(label) ? '[a-zA-Z0-9-]+' : escape(label);
  });
  return new RegExp(`^${escape(scheme)}${labels.join('\\.')}${path && path !== '/' ? '/.+' : '/?'}$`);
}

/** The pattern of a sample id: a prefixed one (`fs-0123456789111222a`), a UUID, or bare characters (`a0bc123d4e`). */
function idPattern(sample: string): RegExp | undefined {
  if (/^[0-9a-zA-Z]{8}(-[0-9a-zA-Z]{4}){3}-[0-9a-zA-Z]{12}$/.test(sample))
    return /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;
  const prefixed = /^([a-z]+(?:-[a-z]+)*)-([0-9a-zA-Z]{5,})$/.exec(sample);
  if (prefixed && /\d/.test(prefixed[2]!)) return new RegExp(`^${escape(prefixed[1]!)}-[0-9a-zA-Z]+$`);
  if (/^[0-9a-z]{6,}$/.test(sample) && /\d/.test(sample) && /[a-z]/.test(sample))
    return new RegExp(`^[0-9a-z]{${sample.length}}$`);
  if (/^[0-9A-Z]{6,}$/.test(sample) && /\d/.test(sample) && /[A-Z]/.test(sample))
    return new RegExp(`^[0-9A-Z]{${sample.length}}$`);
  return undefined;
}

/** Samples of values the user chooses (`my-cluster`, `example.com`, a region): they show no format. */
const USER_CHOSEN = /^(my|sample|example)|\b(example|mydomain)\.com\b|^[a-z]{2}-[a-z]+-\d$/i;

/** The format a sample shows, or undefined when it shows none this reads (a number, a date, a word). */
export function sampleFormat(sample: string): RegExp | undefined {
  if (USER_CHOSEN.test(sample)) return undefined;
  if (sample.startsWith('arn:')) return arnPattern(sample);
  return hostPattern(sample) ?? idPattern(sample);
}

/** The sample a Ref text shows (`returns the resource name, such as \`test-repository\``). */
export function refSample(text: string | undefined): string | undefined {
  if (!text) return undefined;
  for (const [, code] of text.matchAll(/`([^`]+)`/g)) {
    const value = code!.trim();
    if (/\s/.test(value) || /^(Ref|AWS::)/.test(value) || /[<>{}|]/.test(value)) continue;
    if (/[:/.\-_0-9]/.test(value)) return value;
  }
  return undefined;
}

export type RefClaim = 'an ARN' | 'a name' | 'an id' | undefined;

/** What a Ref text says Ref returns: the first of an ARN, a name or an id it names. */
export function refClaim(text: string | undefined): RefClaim {
  if (!text) return undefined;
  const after = text.slice(Math.max(0, text.search(/returns?\b/i)));
  const at = (re: RegExp) => {
    const i = after.search(re);
    return i < 0 ? Infinity : i;
  };
  const arn = at(/\bARNs?\b|Amazon Resource Name|Amazon Resource Number/i);
  const name = at(/\bname\b/i);
  const id = at(/\b(IDs?|Id|identifier)\b/);
  const first = Math.min(arn, name, id);
  if (first === Infinity) return undefined;
  return first === arn ? 'an ARN' : first === name ? 'a name' : 'an id';
}
