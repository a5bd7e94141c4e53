// How DescribeType and ListTypes show each kind of extension: an account's registered or activated one, an AWS
// type (its schema written from the resource specification), and a public third-party one of the catalogue.
import type { DescribeTypeOutput, TypeSummary, TypeVersionSummary } from '../../../generated/cloudformation.js';
import type { CatalogueEntry, ExtensionRecord, ExtensionVersionRecord } from '../../../storage/index.js';
import type { Caller } from '../../../state-machine/engine.js';
import { publicTypeArn, typeArn, versionArn } from '../../../state-machine/registry/arns.js';
import { defaultVersion } from '../../../state-machine/registry/extensions.js';
import { awsProvisioningType, awsTypeSchema } from '../../../resources/typeSchemas.js';
import { hookConfigurationSchema } from './hookConfigurationSchema.js';

/**
 * When AWS types show as created and updated: the specification carries no dates, so one fixed time (the day the
 * registry's DescribeType shipped) stands for all of them (README, "Differences from AWS").
 */
export const AWS_TYPES_TIME = new Date('2019-11-18T00:00:00.000Z');

const date = (iso: string) => new Date(iso);

export function describeExtension(
  scope: Caller,
  ext: ExtensionRecord,
  version: ExtensionVersionRecord,
  activatedHere: boolean,
): DescribeTypeOutput {
  const activation = ext.activation;
  const schema = JSON.parse(version.schema) as Record<string, unknown>;
  return {
    Arn: activation
      ? typeArn(scope, ext.category, ext.typeName)
      : versionArn(scope, ext.category, ext.typeName, version.versionId),
    Type: ext.category,
    TypeName: ext.typeName,
    DefaultVersionId: activation ? undefined : ext.defaultVersionId,
    IsDefaultVersion: version.versionId === ext.defaultVersionId,
    TypeTestsStatus: version.testsStatus,
    TypeTestsStatusDescription: version.testsStatusDescription,
    Description: version.description,
    Schema: version.schema,
    ProvisioningType: version.provisioningType,
    DeprecatedStatus: version.deprecated ? 'DEPRECATED' : 'LIVE',
    LoggingConfig: version.loggingConfig,
    ExecutionRoleArn: version.executionRoleArn,
    Visibility: 'PRIVATE',
    SourceUrl: version.sourceUrl,
    DocumentationUrl: version.documentationUrl,
    LastUpdated: date(version.timeCreated),
    TimeCreated: date(version.timeCreated),
    ConfigurationSchema:
      ext.category === 'HOOK' ? (version.configurationSchema ?? hookConfigurationSchema(scope, schema)) : undefined,
    PublisherId: activation?.publisherId,
    OriginalTypeName: activation?.originalTypeName,
    OriginalTypeArn: activation?.publicTypeArn,
    PublicVersionNumber: version.publicVersionNumber,
    LatestPublicVersion: version.publicVersionNumber,
    IsActivated: activation ? activatedHere : undefined,
    AutoUpdate: activation?.autoUpdate,
  };
}

export function describeAwsType(scope: Caller, typeName: string): DescribeTypeOutput {
  return {
    Arn: publicTypeArn(scope, 'RESOURCE', typeName),
    Type: 'RESOURCE',
    TypeName: typeName,
    IsDefaultVersion: true,
    Description: `Resource Type definition for ${typeName}`,
    Schema: JSON.stringify(awsTypeSchema(typeName)),
    ProvisioningType: awsProvisioningType(typeName),
    DeprecatedStatus: 'LIVE',
    Visibility: 'PUBLIC',
    TimeCreated: AWS_TYPES_TIME,
    LastUpdated: AWS_TYPES_TIME,
  };
}

export function describeCatalogueEntry(scope: Caller, entry: CatalogueEntry, activated: boolean): DescribeTypeOutput {
  const schema = JSON.parse(entry.schema) as Record<string, unknown>;
  return {
    Arn: publicTypeArn(scope, entry.category, entry.typeName, entry.publisherId),
    Type: entry.category,
    TypeName: entry.typeName,
    IsDefaultVersion: true,
    Description: entry.description,
    Schema: entry.schema,
    ProvisioningType: entry.category === 'RESOURCE' ? 'FULLY_MUTABLE' : undefined,
    DeprecatedStatus: 'LIVE',
    Visibility: 'PUBLIC',
    SourceUrl: entry.sourceUrl,
    DocumentationUrl: entry.documentationUrl,
    TimeCreated: date(entry.timeCreated),
    LastUpdated: date(entry.timeCreated),
    ConfigurationSchema: entry.category === 'HOOK' ? hookConfigurationSchema(scope, schema) : undefined,
    PublisherId: entry.publisherId,
    PublicVersionNumber: entry.publicVersionNumber,
    LatestPublicVersion: entry.publicVersionNumber,
    IsActivated: activated,
  };
}

export function extensionSummary(scope: Caller, ext: ExtensionRecord): TypeSummary {
  const version: ExtensionVersionRecord | undefined = defaultVersion(ext) ?? ext.versions.at(-1);
  const activation = ext.activation;
  return {
    Type: ext.category,
    TypeName: ext.typeName,
    DefaultVersionId: activation ? undefined : ext.defaultVersionId,
    TypeArn: typeArn(scope, ext.category, ext.typeName),
    LastUpdated: date(ext.lastUpdated),
    Description: version?.description,
    PublisherId: activation?.publisherId,
    OriginalTypeName: activation?.originalTypeName,
    PublicVersionNumber: version?.publicVersionNumber,
    LatestPublicVersion: version?.publicVersionNumber,
    IsActivated: activation ? true : undefined,
  };
}

export function awsTypeSummary(scope: Caller, typeName: string): TypeSummary {
  return {
    Type: 'RESOURCE',
    TypeName: typeName,
    TypeArn: publicTypeArn(scope, 'RESOURCE', typeName),
    LastUpdated: AWS_TYPES_TIME,
    Description: `Resource Type definition for ${typeName}`,
  };
}

export function catalogueSummary(scope: Caller, entry: CatalogueEntry, activated: boolean): TypeSummary {
  return {
    Type: entry.category,
    TypeName: entry.typeName,
    TypeArn: publicTypeArn(scope, entry.category, entry.typeName, entry.publisherId),
    LastUpdated: date(entry.timeCreated),
    Description: entry.description,
    PublisherId: entry.publisherId,
    PublicVersionNumber: entry.publicVersionNumber,
    LatestPublicVersion: entry.publicVersionNumber,
    PublisherIdentity: 'AWS_Marketplace',
    PublisherName: entry.publisherName,
    IsActivated: activated,
  };
}

export function versionSummary(scope: Caller, ext: ExtensionRecord, v: ExtensionVersionRecord): TypeVersionSummary {
  return {
    Type: ext.category,
    TypeName: ext.typeName,
    VersionId: v.versionId,
    IsDefaultVersion: v.versionId === ext.defaultVersionId,
    Arn: versionArn(scope, ext.category, ext.typeName, v.versionId),
    TimeCreated: date(v.timeCreated),
    Description: v.description,
    PublicVersionNumber: v.publicVersionNumber,
  };
}
