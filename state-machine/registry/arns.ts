// The registry's ARNs, as AWS forms them: a type `arn:aws:cloudformation:<region>:<account>:type/<category>/<Name-
// With-Dashes>`, its versions `<type arn>/<8-digit version id>`, a type configuration `…:type-configuration/<category>/
// <Name>/<alias>`; public types carry no account (`…:<region>::type/resource/AWS-S3-Bucket`, a third party's with its
// publisher id: `…::type/resource/<publisher id>/<Name>`).
import type { Caller } from '../engine.js';
import type { ExtensionCategory } from '../../storage/index.js';
import { partitionOf } from '../../resources/regions.js';

export const CATEGORIES: readonly ExtensionCategory[] = ['RESOURCE', 'MODULE', 'HOOK'];

const dashed = (typeName: string) => typeName.replace(/::/g, '-');

function base(scope: { region: string }, account: string, kind: 'type' | 'type-configuration', category: string) {
  return `arn:${partitionOf(scope.region)}:cloudformation:${scope.region}:${account}:${kind}/${category.toLowerCase()}`;
}

export function typeArn(scope: Caller, category: ExtensionCategory, typeName: string): string {
  return `${base(scope, scope.account, 'type', category)}/${dashed(typeName)}`;
}

export function versionArn(scope: Caller, category: ExtensionCategory, typeName: string, versionId: string): string {
  return `${typeArn(scope, category, typeName)}/${versionId}`;
}

export function configurationArn(scope: Caller, category: ExtensionCategory, typeName: string, alias: string) {
  return `${base(scope, scope.account, 'type-configuration', category)}/${dashed(typeName)}/${alias}`;
}

/** An AWS type's ARN (no account), or a third party's public one (with its publisher id). */
export function publicTypeArn(
  scope: { region: string },
  category: ExtensionCategory,
  typeName: string,
  publisherId?: string,
): string {
  const owner = publisherId ? `${publisherId}/` : '';
  return `${base(scope, '', 'type', category)}/${owner}${dashed(typeName)}`;
}

/** Version ids are eight digits counting from 00000001. */
export const versionIdOf = (n: number) => String(n).padStart(8, '0');

export interface ParsedTypeArn {
  region: string;
  account: string;
  category: ExtensionCategory;
  /** The dashed name (`MyOrg-MyService-MyType`): match it against a type name with dashedEquals. */
  dashedName: string;
  publisherId?: string;
  versionId?: string;
}

const TYPE_ARN = /^arn:aws[a-z-]*:cloudformation:([a-z0-9-]+):(\d{12})?:type\/(resource|module|hook)\/(.+)$/;

/** The parts of a type or type-version ARN; undefined for anything else. */
export function parseTypeArn(arn: string): ParsedTypeArn | undefined {
  const m = TYPE_ARN.exec(arn);
  if (!m) return undefined;
  const [, region, account = '', category, rest] = m;
  const parts = rest.split('/');
  const versionId = parts.length > 1 && /^\d{8}$/.test(parts[parts.length - 1]) ? parts.pop() : undefined;
  const publisherId = parts.length > 1 ? parts.shift() : undefined;
  if (parts.length !== 1) return undefined;
  return {
    region,
    account,
    category: category.toUpperCase() as ExtensionCategory,
    dashedName: parts[0],
    publisherId,
    versionId,
  };
}

export const dashedEquals = (typeName: string, dashedName: string) => dashed(typeName) === dashedName;
