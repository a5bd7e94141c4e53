// RegisterPublisher, DescribePublisher, TestType and PublishType: an account becomes a publisher, tests a private
// extension's version (cfn-local runs no contract tests: the version PASSES at once) and publishes it, after which
// it is a public third-party extension of the catalogue that any account can activate.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_PublishType.html
import { createHash } from 'node:crypto';
import type { Caller, Engine } from '../engine.js';
import type { PublisherRecord, ReadonlyStore } from '../../storage/index.js';
import { registryError, typeNotFound, validationError } from '../../domain/errors.js';
import { publicTypeArn, versionArn } from './arns.js';
import { catalogueOf } from './catalogue.js';
import { defaultVersion, findExtension, type ExtensionRef } from './extensions.js';

/** A publisher id of AWS's form (40 hex digits), the same for an account and region every time. */
const publisherIdOf = (scope: Caller) =>
  createHash('sha1').update(`publisher:${scope.account}:${scope.region}`).digest('hex');

export function registerPublisher(
  engine: Engine,
  scope: Caller,
  request: { AcceptTermsAndConditions?: boolean; ConnectionArn?: string },
): string {
  const { store, clock } = engine.deps;
  const existing = store.registry.publisher(scope.account, scope.region);
  if (existing) return existing.publisherId;
  if (request.AcceptTermsAndConditions !== true) {
    throw registryError('You must accept the terms and conditions to register as a publisher');
  }
  const publisher: PublisherRecord = {
    publisherId: publisherIdOf(scope),
    connectionArn: request.ConnectionArn,
    registeredAt: clock.now().toISOString(),
  };
  store.registry.savePublisher(scope.account, scope.region, publisher);
  return publisher.publisherId;
}

export interface PublisherView {
  PublisherId: string;
  PublisherStatus: 'VERIFIED' | 'UNVERIFIED';
  IdentityProvider?: string;
  PublisherProfile?: string;
}

/** The caller's publisher, or the one named: registered here, or the publisher of a catalogue entry. */
export function describePublisher(
  store: Pick<ReadonlyStore, 'registry'>,
  scope: Caller,
  publisherId: string | undefined,
): PublisherView {
  const own = store.registry.publisher(scope.account, scope.region);
  if (own && (publisherId === undefined || publisherId === own.publisherId)) {
    return {
      PublisherId: own.publisherId,
      PublisherStatus: 'VERIFIED',
      IdentityProvider: own.connectionArn ? providerOf(own.connectionArn) : 'AWS_Marketplace',
    };
  }
  const known = publisherId !== undefined && catalogueOf(store).some((e) => e.publisherId === publisherId);
  if (!known) throw registryError(publisherId === undefined ? 'Publisher not registered' : 'Publisher not found');
  return { PublisherId: publisherId, PublisherStatus: 'VERIFIED', IdentityProvider: 'AWS_Marketplace' };
}

// A CodeStar connection to GitHub or Bitbucket verifies a publisher through that provider.
const providerOf = (connectionArn: string) => (/bitbucket/i.test(connectionArn) ? 'Bitbucket' : 'GitHub');

export function testType(engine: Engine, scope: Caller, ref: ExtensionRef & { LogDeliveryBucket?: string }): string {
  const { store } = engine.deps;
  const { ext, versionId } = findExtension(store, scope, ref);
  if (ext.activation) throw registryError('Only private extensions registered in this account can be tested');
  const id = versionId ?? ext.defaultVersionId;
  if (!ext.versions.some((v) => v.versionId === id && !v.deprecated)) throw typeNotFound(ext.typeName);
  store.registry.saveType({
    ...ext,
    versions: ext.versions.map((v) =>
      v.versionId === id
        ? { ...v, testsStatus: 'PASSED', testsStatusDescription: 'cfn-local runs no contract tests: passed as tested' }
        : v,
    ),
  });
  return versionArn(scope, ext.category, ext.typeName, id);
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

export function publishType(
  engine: Engine,
  scope: Caller,
  ref: ExtensionRef & { PublicVersionNumber?: string },
): string {
  const { store, clock } = engine.deps;
  const publisher = store.registry.publisher(scope.account, scope.region);
  if (!publisher) throw registryError('Publisher not registered; call RegisterPublisher first');
  const { ext } = findExtension(store, scope, { Arn: ref.Arn, Type: ref.Type, TypeName: ref.TypeName });
  if (ext.activation) throw registryError('Only private extensions registered in this account can be published');
  const version = defaultVersion(ext)!;
  if (version.testsStatus !== 'PASSED') {
    throw registryError(`Extension ${ext.typeName} must pass testing before it can be published; call TestType`);
  }
  const previous = catalogueOf(store).find(
    (e) => e.category === ext.category && e.typeName === ext.typeName && e.publisherId === publisher.publisherId,
  );
  const number = ref.PublicVersionNumber ?? nextMinor(previous?.publicVersionNumber);
  if (!SEMVER.test(number)) {
    throw validationError(
      `1 validation error detected: Value '${number}' at 'publicVersionNumber' failed to satisfy constraint: Member must satisfy regular expression pattern: ^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$`,
    );
  }
  if (previous && !greater(number, previous.publicVersionNumber)) {
    throw registryError(
      `Version ${number} must be greater than the latest public version ${previous.publicVersionNumber}`,
    );
  }
  store.registry.saveEntry({
    category: ext.category,
    typeName: ext.typeName,
    publisherId: publisher.publisherId,
    description: version.description,
    schema: version.schema,
    publicVersionNumber: number,
    timeCreated: clock.now().toISOString(),
    sourceUrl: version.sourceUrl,
    documentationUrl: version.documentationUrl,
  });
  return publicTypeArn(scope, ext.category, ext.typeName, publisher.publisherId);
}

const parts = (v: string) => SEMVER.exec(v)!.slice(1).map(Number);
function greater(a: string, b: string): boolean {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
}
function nextMinor(v: string | undefined): string {
  if (!v) return '1.0.0';
  const [major, minor] = parts(v);
  return `${major}.${minor + 1}.0`;
}
