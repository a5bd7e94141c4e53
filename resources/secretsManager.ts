// AWS::SecretsManager::Secret: the secret's value lives in the world (properties.SecretString, generated from
// GenerateSecretString when the template asks for it), so that `{{resolve:secretsmanager:…}}` can read it.
import { randomInt } from 'node:crypto';
import { alreadyExists, genericProvider } from './genericProvider.js';
import { randomSuffix } from './names.js';
import type { Provider, ProviderResult, ResourceRequest, WorldAccess } from './provider.js';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
// GetRandomPassword's punctuation set.
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

interface GenerateSecretString {
  PasswordLength?: number | string;
  ExcludeCharacters?: string;
  ExcludeUppercase?: boolean | string;
  ExcludeLowercase?: boolean | string;
  ExcludeNumbers?: boolean | string;
  ExcludePunctuation?: boolean | string;
  IncludeSpace?: boolean | string;
  RequireEachIncludedType?: boolean | string;
  SecretStringTemplate?: string;
  GenerateStringKey?: string;
}

const isTrue = (v: unknown) => v === true || v === 'true';

/** A password as GetRandomPassword draws it: 32 characters by default, one of each included type unless told not. */
export function randomPassword(g: GenerateSecretString): string {
  const excluded = new Set(g.ExcludeCharacters ?? '');
  const sets = [
    isTrue(g.ExcludeUppercase) ? '' : UPPER,
    isTrue(g.ExcludeLowercase) ? '' : LOWER,
    isTrue(g.ExcludeNumbers) ? '' : DIGITS,
    isTrue(g.ExcludePunctuation) ? '' : PUNCTUATION,
    isTrue(g.IncludeSpace) ? ' ' : '',
  ]
    .map((set) =>
      Array.from(set)
        .filter((c) => !excluded.has(c))
        .join(''),
    )
    .filter((set) => set.length > 0);
  const all = sets.join('');
  const length = Math.max(1, Number(g.PasswordLength ?? 32) || 32);
  if (!all) return '';
  const chars = Array.from({ length }, () => all[randomInt(all.length)]);
  if (g.RequireEachIncludedType !== false && g.RequireEachIncludedType !== 'false' && length >= sets.length) {
    const slots = [...Array(length).keys()].sort(() => randomInt(3) - 1).slice(0, sets.length);
    sets.forEach((set, i) => {
      chars[slots[i]] = set[randomInt(set.length)];
    });
  }
  return chars.join('');
}

/** The secret's value: SecretString as given, or generated (merged into SecretStringTemplate under GenerateStringKey). */
export function secretValue(properties: Record<string, unknown>): string {
  if (typeof properties.SecretString === 'string') return properties.SecretString;
  const g = properties.GenerateSecretString as GenerateSecretString | undefined;
  if (!g) return '';
  const password = randomPassword(g);
  if (g.SecretStringTemplate && g.GenerateStringKey) {
    try {
      return JSON.stringify({ ...JSON.parse(g.SecretStringTemplate), [g.GenerateStringKey]: password });
    } catch {
      return password;
    }
  }
  return password;
}

// A secret's ARN ends in a dash and six random characters; without a Name, CloudFormation names it
// `<LogicalId>-<12 characters>` (no stack name, unlike most types).
function identity(req: ResourceRequest): { name: string; arn: string } {
  const name =
    typeof req.properties.Name === 'string' && req.properties.Name
      ? req.properties.Name
      : `${req.logicalId}-${randomSuffix()}`;
  return {
    name,
    arn: `arn:${req.partition}:secretsmanager:${req.region}:${req.account}:secret:${name}-${randomSuffix(6)}`,
  };
}

export const secretProvider: Provider = {
  ...genericProvider,
  create(world: WorldAccess, req: ResourceRequest): ProviderResult {
    const { name, arn } = identity(req);
    if (world.byName(req.type, name)) return alreadyExists(req, name);
    const properties = { ...req.properties, SecretString: secretValue(req.properties) };
    world.put({
      account: req.account,
      region: req.region,
      type: req.type,
      physicalId: arn,
      name,
      stackId: req.stackId,
      logicalId: req.logicalId,
      createdAt: world.now(),
      properties,
      attributes: { Id: arn },
      state: {},
    });
    return { ok: true, physicalId: arn, ref: arn, attributes: { Id: arn } };
  },
  update(world, req) {
    const found = req.physicalId ? world.get(req.type, req.physicalId) : undefined;
    if (!found) return genericProvider.update(world, req);
    // A generated value stays unless the generation settings (or an explicit SecretString) change.
    const same =
      JSON.stringify(req.properties.GenerateSecretString) ===
        JSON.stringify(req.previousProperties?.GenerateSecretString) && req.properties.SecretString === undefined;
    const SecretString = same ? found.properties.SecretString : secretValue(req.properties);
    world.put({ ...found, properties: { ...req.properties, SecretString } });
    return { ok: true, physicalId: found.physicalId, ref: found.physicalId, attributes: found.attributes };
  },
};
