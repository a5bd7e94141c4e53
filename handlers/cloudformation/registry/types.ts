// DescribeType, ListTypes and ListTypeVersions: the account's extensions (PRIVATE: registered and activated), AWS's
// types and the public third-party catalogue (PUBLIC).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_DescribeType.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ListTypes.html
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_ListTypeVersions.html
import type { CatalogueEntry, ExtensionRecord } from '../../../storage/index.js';
import type { TypeSummary } from '../../../generated/cloudformation.js';
import { typeNotFound } from '../../../domain/errors.js';
import { isKnownType, knownTypes } from '../../../resources/spec.js';
import { awsTypesListing } from '../../../resources/typeSchemas.js';
import { dashedEquals, parseTypeArn } from '../../../state-machine/registry/arns.js';
import { catalogueOf } from '../../../state-machine/registry/catalogue.js';
import {
  categoryOf,
  checkRef,
  defaultVersion,
  isLive,
  lookupExtension,
} from '../../../state-machine/registry/extensions.js';
import { pageOf } from '../stackSets/paging.js';
import type { Handler, HandlerContext } from '../context.js';
import {
  awsTypeSummary,
  catalogueSummary,
  describeAwsType,
  describeCatalogueEntry,
  describeExtension,
  extensionSummary,
  versionSummary,
} from './typeViews.js';

const isActivated = (ctx: HandlerContext, entry: CatalogueEntry) =>
  ctx.store.registry
    .types(ctx.caller.account, ctx.caller.region)
    .some((e) => isLive(e) && e.activation?.originalTypeName === entry.typeName && e.category === entry.category);

export const describeType: Handler<'DescribeType'> = (ctx, input) => {
  checkRef(input);
  const parsed = input.Arn !== undefined ? parseTypeArn(input.Arn) : undefined;
  if (parsed && parsed.account === '') return describePublic(ctx, parsed, input.Arn!);
  const { ext, name, versionId } = lookupExtension(ctx.store, ctx.caller, input);
  if (ext && isLive(ext)) {
    const version = versionId === undefined ? defaultVersion(ext) : ext.versions.find((v) => v.versionId === versionId);
    if (!version) throw typeNotFound(name);
    return describeExtension(ctx.caller, ext, version, true);
  }
  if (input.TypeName !== undefined) {
    const category = categoryOf(input.Type);
    const entry = catalogueOf(ctx.store).find(
      (e) =>
        e.category === category &&
        e.typeName === input.TypeName &&
        (input.PublisherId === undefined || e.publisherId === input.PublisherId),
    );
    if (input.PublisherId !== undefined && entry)
      return describeCatalogueEntry(ctx.caller, entry, isActivated(ctx, entry));
    if (category === 'RESOURCE' && isKnownType(input.TypeName)) return describeAwsType(ctx.caller, input.TypeName);
  }
  throw typeNotFound(name);
};

function describePublic(ctx: HandlerContext, parsed: NonNullable<ReturnType<typeof parseTypeArn>>, arn: string) {
  if (parsed.publisherId !== undefined) {
    const entry = catalogueOf(ctx.store).find(
      (e) =>
        e.category === parsed.category &&
        e.publisherId === parsed.publisherId &&
        dashedEquals(e.typeName, parsed.dashedName),
    );
    if (!entry) throw typeNotFound(arn);
    return describeCatalogueEntry(ctx.caller, entry, isActivated(ctx, entry));
  }
  const name = parsed.category === 'RESOURCE' ? awsTypeByDashedName(parsed.dashedName) : undefined;
  if (!name) throw typeNotFound(arn);
  return describeAwsType(ctx.caller, name);
}

let dashedIndex: Map<string, string> | undefined;
function awsTypeByDashedName(dashedName: string): string | undefined {
  dashedIndex ??= new Map(knownTypes().map((t) => [t.replace(/::/g, '-'), t]));
  return dashedIndex.get(dashedName);
}

// ListTypes' Filters.Category values.
type Category = 'REGISTERED' | 'ACTIVATED' | 'THIRD_PARTY' | 'AWS_TYPES';

interface Listed {
  summary: TypeSummary;
  category: Category[];
  provisioningType?: string;
  deprecated: boolean;
}

function privateListing(ctx: HandlerContext): Listed[] {
  return ctx.store.registry.types(ctx.caller.account, ctx.caller.region).flatMap((ext: ExtensionRecord) => {
    if (!ext.versions.length) return [];
    const version = defaultVersion(ext);
    const categories: Category[] = ext.activation ? ['ACTIVATED', 'THIRD_PARTY'] : ['REGISTERED', 'THIRD_PARTY'];
    return [
      {
        summary: extensionSummary(ctx.caller, ext),
        category: categories,
        provisioningType: ext.category === 'RESOURCE' ? (version?.provisioningType ?? 'FULLY_MUTABLE') : undefined,
        deprecated: !isLive(ext),
      },
    ];
  });
}

function publicListing(ctx: HandlerContext, type: string | undefined): Listed[] {
  const aws: Listed[] =
    type === undefined || type === 'RESOURCE'
      ? awsTypesListing().map((t) => ({
          summary: awsTypeSummary(ctx.caller, t.typeName),
          category: ['AWS_TYPES'],
          provisioningType: t.provisioningType,
          deprecated: false,
        }))
      : [];
  const third: Listed[] = catalogueOf(ctx.store).map((e) => ({
    summary: catalogueSummary(ctx.caller, e, isActivated(ctx, e)),
    category: ['THIRD_PARTY'],
    provisioningType: e.category === 'RESOURCE' ? 'FULLY_MUTABLE' : undefined,
    deprecated: false,
  }));
  return [...aws, ...third];
}

export const listTypes: Handler<'ListTypes'> = (ctx, input) => {
  const visibility = input.Visibility ?? 'PRIVATE';
  const type = input.Type === undefined ? undefined : categoryOf(input.Type);
  // AWS's defaults: FULLY_MUTABLE resource types, LIVE ones (provisioning applies to resource types only).
  const provisioning = input.ProvisioningType ?? 'FULLY_MUTABLE';
  const deprecated = (input.DeprecatedStatus ?? 'LIVE') === 'DEPRECATED';
  const filters = input.Filters ?? {};
  const all = visibility === 'PUBLIC' ? publicListing(ctx, type) : privateListing(ctx);
  const matching = all
    .filter((l) => type === undefined || l.summary.Type === type)
    .filter((l) => l.provisioningType === undefined || l.provisioningType === provisioning)
    .filter((l) => l.deprecated === deprecated)
    .filter((l) => filters.Category === undefined || l.category.includes(filters.Category as Category))
    .filter((l) => filters.PublisherId === undefined || l.summary.PublisherId === filters.PublisherId)
    .filter((l) => filters.TypeNamePrefix === undefined || l.summary.TypeName!.startsWith(filters.TypeNamePrefix))
    .map((l) => l.summary);
  const { page, NextToken } = pageOf(matching, input.NextToken, input.MaxResults);
  return { TypeSummaries: page, NextToken };
};

export const listTypeVersions: Handler<'ListTypeVersions'> = (ctx, input) => {
  checkRef(input);
  const { ext, name } = lookupExtension(ctx.store, ctx.caller, input);
  if (!ext || !ext.versions.length) throw typeNotFound(name);
  const deprecated = (input.DeprecatedStatus ?? 'LIVE') === 'DEPRECATED';
  const versions = ext.versions
    .filter((v) => v.deprecated === deprecated)
    .map((v) => versionSummary(ctx.caller, ext, v));
  const { page, NextToken } = pageOf(versions, input.NextToken, input.MaxResults);
  return { TypeVersionSummaries: page, NextToken };
};
