// Values in the format of the sample AWS's user guide shows for an attribute or for Ref (the spec's `ds` and `rs`):
// an ARN with the sample's service, region and account fields and resource type, a host with its service labels, an
// id with its prefix, length and alphabet. The sample's example parts (names, ids) are this resource's own.
// A sample that shows a value the user chooses (`my-cluster`, `example.com`, a region) gives no format.
import type { AccountContext } from './identity.js';
import { DIGITS, HEX, LOWER_ALNUM, UPPER_ALNUM, randomChars, randomUuid, type RandomSource } from './random.js';

export interface SampleContext {
  readonly ctx: AccountContext;
  readonly random: RandomSource;
  /** The resource's own label (its name or a DNS-safe form of it), for the sample's example name. */
  readonly label: string;
}

const REGION = /^([a-z]{2}(-gov)?-[a-z]+-\d|region|<region>)$/;
const ACCOUNT = /^(\d{10,12}|account-id|account)$/;
/** A part that is an example value rather than a fixed word: it holds a digit, an upper-case letter or `_`. */
const exampleLike = (s: string) => /[0-9A-Z_]/.test(s);
/** Samples of values the user chooses: names starting `my`, example domains, sample stacks. */
const USER_CHOSEN = /^(my|sample|example)|\b(example|mydomain)\.com\b|^[a-z]{2}-[a-z]+-\d$/i;

/** The alphabet a sample's characters are drawn from. */
function alphabetOf(chars: string): string {
  if (/^[0-9]+$/.test(chars)) return DIGITS;
  if (/^[0-9a-f]+$/.test(chars)) return HEX;
  if (/^[0-9a-z]+$/.test(chars)) return LOWER_ALNUM;
  if (/^[0-9A-Z]+$/.test(chars)) return UPPER_ALNUM;
  return LOWER_ALNUM;
}

/**
 * An ARN template (`arn:${Partition}:appsync:${Region}:${Account}:apis/${Name}`) in the form of a sample ARN: its
 * service, whether it has region and account fields, and its resource type; the rest is the resource's name.
 */
export function arnTemplateOf(sample: string | undefined): string | undefined {
  const m = sample && /^arn:aws:([a-z0-9-]+):([^:]*):([^:]*):(.+)$/.exec(sample);
  if (!m) return undefined;
  const [, service, region, account, resource] = m;
  const type = /^([a-z][a-zA-Z-]*)([/:])/.exec(resource);
  const prefix = type && !exampleLike(type[1]) ? type[0] : '';
  const accountPart = account === 'aws' ? 'aws' : account ? '${Account}' : '';
  return `arn:\${Partition}:${service}:${region ? '${Region}' : ''}:${accountPart}:${prefix}\${Name}`;
}

function arnLike(sample: string, s: SampleContext): string | undefined {
  return arnTemplateOf(sample)
    ?.replace('${Partition}', s.ctx.partition)
    .replace('${Region}', s.ctx.region)
    .replace('${Account}', s.ctx.account)
    .replace('${Name}', s.label);
}

function hostLike(sample: string, s: SampleContext): string | undefined {
  const m = /^(https?:\/\/|wss:\/\/)?([a-zA-Z0-9-]+(?:\.[a-zA-Z0-9-]+){2,})(\/.*)?$/.exec(sample);
  if (!m || !/\.(com|net|aws|cn)$/.test(m[2])) return undefined;
  const [, scheme = '', host, path] = m;
  const label = s.label
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 63);
  const labels = host.split('.').map((part, i) => {
    if (REGION.test(part)) return s.ctx.region;
    if (ACCOUNT.test(part)) return s.ctx.account;
    if (i === 0) return label;
    return exampleLike(part) ? randomChars(s.random, part.length, LOWER_ALNUM) : part;
  });
  return `${scheme}${labels.join('.')}${path && path !== '/' ? `/${label}` : ''}`;
}

function idLike(sample: string, s: SampleContext): string | undefined {
  if (/^[0-9a-zA-Z]{8}(-[0-9a-zA-Z]{4}){3}-[0-9a-zA-Z]{12}$/.test(sample)) return randomUuid(s.random);
  const prefixed = /^([a-z]+(?:-[a-z]+)*)-([0-9a-zA-Z]{5,})$/.exec(sample);
  if (prefixed && /\d/.test(prefixed[2])) {
    const tail = prefixed[2].replace(/EXAMPLE|example/g, '');
    return `${prefixed[1]}-${randomChars(s.random, prefixed[2].length, alphabetOf(tail))}`;
  }
  if (
    /^[0-9a-zA-Z]{6,}$/.test(sample) &&
    /\d/.test(sample) &&
    /[a-zA-Z]/.test(sample) &&
    !/[a-z].*[A-Z]|[A-Z].*[a-z]/.test(sample)
  )
    return randomChars(s.random, sample.length, alphabetOf(sample));
  return undefined;
}

/** A value in the sample's format, or undefined when the sample shows no format this reads. */
export function fromSample(sample: string | undefined, s: SampleContext): string | undefined {
  if (!sample || USER_CHOSEN.test(sample)) return undefined;
  if (sample.startsWith('arn:')) return arnLike(sample, s);
  return hostLike(sample, s) ?? idLike(sample, s);
}

/** Whether the sample is an ARN (a value that an ARN-named attribute or identifier takes from its template). */
export const isArnSample = (sample: string | undefined) => !!sample?.startsWith('arn:');
