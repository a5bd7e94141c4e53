// DeletionPolicy defaults and Snapshot: which types default to Snapshot, which support it, and the snapshot a
// Snapshot policy leaves in the account before the resource is deleted.
import type { WorldAccess } from './provider.js';

/** Types AWS can snapshot; for any other type a Snapshot policy simply deletes (AWS accepts it silently). */
export const SNAPSHOT_TYPES: ReadonlySet<string> = new Set([
  'AWS::EC2::Volume',
  'AWS::ElastiCache::CacheCluster',
  'AWS::ElastiCache::ReplicationGroup',
  'AWS::Neptune::DBCluster',
  'AWS::RDS::DBCluster',
  'AWS::RDS::DBInstance',
  'AWS::Redshift::Cluster',
  'AWS::DocDB::DBCluster',
]);

/** AWS's default DeletionPolicy: Snapshot for RDS clusters and for instances that are not cluster members. */
export function defaultDeletionPolicy(type: string, properties: Record<string, unknown>): string | undefined {
  if (type === 'AWS::RDS::DBCluster') return 'Snapshot';
  if (type === 'AWS::RDS::DBInstance' && properties.DBClusterIdentifier === undefined) return 'Snapshot';
  return undefined;
}

/** Records the final snapshot of a resource being deleted under a Snapshot policy (supported types only). */
export function snapshotOf(
  world: WorldAccess,
  type: string,
  physicalId: string | undefined,
  properties: Record<string, unknown>,
): void {
  if (!physicalId || !SNAPSHOT_TYPES.has(type)) return;
  const source = world.get(type, physicalId);
  if (!source) return;
  const snapshotId = `${physicalId}-snapshot-${world.random(8).toLowerCase()}`;
  world.put({
    account: source.account,
    region: source.region,
    type: 'cfn-local::Snapshot',
    physicalId: snapshotId,
    name: snapshotId,
    createdAt: world.now(),
    properties: { SourceType: type, SourcePhysicalId: physicalId, SourceProperties: properties },
    attributes: {},
    state: {},
  });
}
