// Deletes the service refuses, from the state of the physical resource: data still held, deletion protection,
// attachments or dependants held outside the stack, a nested stack whose own teardown failed. A refusal lasts as
// long as its condition: a retry fails the same way until the control API clears it. Texts from
// AWS's ResourceStatusReason texts as users quote them in public issues, in the registry handler's format (the nested stack's is CloudFormation's own).
import { randomUUID } from 'node:crypto';
import type { WorldResource } from '../storage/world.js';
import type { Refusal, ResourceRequest, WorldAccess } from './provider.js';
import { resourceSpec } from './spec.js';
import { isList, isObject } from '../domain/values.js';

interface RefusalRule {
  /** Whether the resource refuses; `world` (the caller's account and region) when the rule looks beyond it. */
  when: (r: WorldResource, world?: WorldAccess) => boolean;
  /** Service name in the handler message (`Service: Ec2`), its HTTP status and error code. */
  service: string;
  status: number;
  code: string;
  handlerCode: string;
  message: (r: WorldResource, req: ResourceRequest) => string;
  /** The reason is the message alone, not wrapped in the handler format. */
  plain?: boolean;
}

/** What the control API can set on a resource, beyond the common WorldState fields. */
interface RefusalState {
  dataItems?: number;
  deletionProtection?: boolean;
  attachedOutside?: string[];
  /** Nested stacks: the child's resources that failed to delete (set by the nested-stack work). */
  failedResources?: string[];
}

const state = (r: WorldResource) => r.state as RefusalState;
// A bucket holds data through the control API's count or real objects put through S3 (r.state.objects).
const holdsData = (r: WorldResource) => (state(r).dataItems ?? 0) + (r.state.objects ?? 0) > 0;
const attached = (r: WorldResource) => (state(r).attachedOutside?.length ?? 0) > 0;
const isOn = (v: unknown) =>
  v === true || (typeof v === 'string' && /^(true|active|enabled|prevent-all-deletion)$/i.test(v));

/** The properties that turn on deletion protection, by name, across the spec's types. */
export const PROTECTION_PROPERTIES = [
  'DeletionProtection',
  'DeletionProtectionEnabled',
  'TerminationProtectionEnabled',
  'DisableApiTermination',
];

/** Deletion protection is on through the control API, a protection property, or (ELBv2) a load balancer attribute. */
export function protectedFromDeletion(r: WorldResource): boolean {
  if (state(r).deletionProtection !== undefined) return state(r).deletionProtection === true;
  if (PROTECTION_PROPERTIES.some((p) => isOn(r.properties[p]))) return true;
  const mode = r.properties.DeletionProtection as { Mode?: unknown } | undefined;
  if (mode && typeof mode === 'object' && isOn(mode.Mode)) return true;
  const attributes = r.properties.LoadBalancerAttributes;
  return (
    isList(attributes) &&
    attributes.some((a) => isObject(a) && a.Key === 'deletion_protection.enabled' && isOn(a.Value))
  );
}

const iam = (message: string): RefusalRule => ({
  when: attached,
  service: 'Iam',
  status: 409,
  code: 'DeleteConflict',
  handlerCode: 'GeneralServiceException',
  message: () => message,
});
// IAM: an ARN held outside is an attached managed policy; a plain name is an inline policy.
const iamEntity: RefusalRule = {
  ...iam(''),
  message: (r) =>
    state(r).attachedOutside!.some((a) => a.startsWith('arn:'))
      ? 'Cannot delete entity, must detach all policies first.'
      : 'Cannot delete entity, must delete policies first.',
};
const ec2 = (noun: string): RefusalRule => ({
  when: attached,
  service: 'Ec2',
  status: 400,
  code: 'DependencyViolation',
  handlerCode: 'InvalidRequest',
  message: (r) => `The ${noun} '${r.physicalId}' has dependencies and cannot be deleted.`,
});
const protection = (
  service: string,
  code: string,
  message: (r: WorldResource) => string,
  status = 400,
): RefusalRule => ({
  when: protectedFromDeletion,
  service,
  status,
  code,
  handlerCode: 'InvalidRequest',
  message,
});
const bucketNotEmpty: RefusalRule = {
  when: holdsData,
  service: 'S3',
  status: 409,
  code: 'BucketNotEmpty',
  handlerCode: 'GeneralServiceException',
  message: (r) => {
    const versioned = (r.properties.VersioningConfiguration as { Status?: string } | undefined)?.Status === 'Enabled';
    return versioned
      ? 'The bucket you tried to delete is not empty. You must delete all versions in the bucket.'
      : 'The bucket you tried to delete is not empty';
  },
};
// An S3 Tables namespace holds the tables of its bucket and name, wherever they were made (another stack, outside).
const holdsTables = (r: WorldResource, world?: WorldAccess) =>
  (world?.list?.('AWS::S3Tables::Table') ?? []).some(
    (t) =>
      t.properties.TableBucketARN === r.properties.TableBucketARN && t.properties.Namespace === r.properties.Namespace,
  );

const notEmpty = (
  service: string,
  status: number,
  code: string,
  message: (r: WorldResource) => string,
): RefusalRule => ({
  when: holdsData,
  service,
  status,
  code,
  handlerCode: 'GeneralServiceException',
  message,
});
const PROTECTED_CLUSTER = protection(
  'Rds',
  'InvalidParameterCombination',
  () => 'Cannot delete protected Cluster, please disable deletion protection and try again.',
);

export const REFUSALS: Readonly<Record<string, readonly RefusalRule[]>> = {
  'AWS::S3::Bucket': [bucketNotEmpty],
  'AWS::S3Express::DirectoryBucket': [bucketNotEmpty],
  'AWS::ECR::Repository': [
    {
      when: (r) => holdsData(r) && !isOn(r.properties.EmptyOnDelete),
      service: 'Ecr',
      status: 400,
      code: 'RepositoryNotEmptyException',
      handlerCode: 'GeneralServiceException',
      message: (r, req) =>
        `The repository with name '${r.name ?? r.physicalId}' in registry with id '${req.account}' cannot be deleted because it still contains images`,
    },
  ],
  // Families that refuse deletion while they hold something (control API: `dataItems`). The namespace text is
  // from seeds-map.md §4; the table bucket and workgroup texts follow their service's style, unrecorded.
  'AWS::S3Tables::Namespace': [
    {
      ...notEmpty('S3Tables', 400, 'BadRequestException', () => 'The namespace that you tried to delete is not empty.'),
      when: (r, world) => holdsData(r) || holdsTables(r, world),
    },
  ],
  'AWS::S3Tables::TableBucket': [
    notEmpty('S3Tables', 409, 'ConflictException', () => 'The bucket that you tried to delete is not empty.'),
  ],
  'AWS::Athena::WorkGroup': [
    {
      ...notEmpty('Athena', 400, 'InvalidRequestException', (r) => `WorkGroup ${r.name ?? r.physicalId} is not empty`),
      when: (r) => holdsData(r) && !isOn(r.properties.RecursiveDeleteOption),
    },
  ],
  'AWS::Backup::BackupVault': [
    notEmpty(
      'Backup',
      400,
      'InvalidRequestException',
      (r) => `Backup vault cannot be deleted (contains ${state(r).dataItems} recovery points)`,
    ),
  ],
  'AWS::Route53::HostedZone': [
    notEmpty(
      'Route53',
      400,
      'HostedZoneNotEmpty',
      () => 'The specified hosted zone contains non-required resource record sets and so cannot be deleted.',
    ),
  ],
  'AWS::ECS::Cluster': [
    notEmpty(
      'Ecs',
      400,
      'ClusterContainsServicesException',
      () => 'The Cluster cannot be deleted while Services are active.',
    ),
  ],
  'AWS::IAM::Role': [iamEntity],
  'AWS::IAM::User': [iamEntity],
  'AWS::IAM::Group': [iamEntity],
  'AWS::IAM::ManagedPolicy': [iam('Cannot delete a policy attached to entities.')],
  'AWS::IAM::InstanceProfile': [iam('Cannot delete entity, must remove roles from instance profile first.')],
  'AWS::EC2::VPC': [ec2('vpc')],
  'AWS::EC2::Subnet': [ec2('subnet')],
  'AWS::EC2::InternetGateway': [ec2('internetGateway')],
  'AWS::EC2::RouteTable': [ec2('routeTable')],
  // Not found in public material: EC2's usual pattern, unverified.
  'AWS::EC2::VPNGateway': [ec2('vpnGateway')],
  'AWS::EC2::SecurityGroup': [{ ...ec2(''), message: (r) => `resource ${r.physicalId} has a dependent object` }],
  'AWS::EC2::VPCGatewayAttachment': [
    {
      ...ec2(''),
      message: (r) =>
        `Network ${String(r.properties.VpcId ?? r.physicalId)} has some mapped public address(es). Please unmap those public address(es) before detaching the gateway.`,
    },
  ],
  'AWS::EC2::Instance': [
    protection(
      'Ec2',
      'OperationNotPermitted',
      (r) =>
        `The instance '${r.physicalId}' may not be terminated. Modify its 'disableApiTermination' instance attribute and try again.`,
    ),
  ],
  'AWS::RDS::DBCluster': [PROTECTED_CLUSTER],
  'AWS::DocDB::DBCluster': [PROTECTED_CLUSTER],
  'AWS::Neptune::DBCluster': [PROTECTED_CLUSTER],
  'AWS::RDS::DBInstance': [
    protection(
      'Rds',
      'InvalidParameterCombination',
      () => 'Cannot delete protected DB Instance, please disable deletion protection and try again.',
    ),
  ],
  'AWS::DynamoDB::Table': [
    protection(
      'DynamoDb',
      'ValidationException',
      () =>
        'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.',
    ),
  ],
  'AWS::Logs::LogGroup': [
    protection(
      'CloudWatchLogs',
      'InvalidOperationException',
      (r) => `Log group ${r.physicalId} is protected from deletion. Disable deletion protection first.`,
    ),
  ],
  'AWS::Cognito::UserPool': [
    protection(
      'CognitoIdentityProvider',
      'InvalidParameterException',
      () =>
        'The user pool cannot be deleted because deletion protection is activated. Deletion protection must be inactivated first.',
    ),
  ],
  'AWS::ElasticLoadBalancingV2::LoadBalancer': [
    protection(
      'ElasticLoadBalancingV2',
      'OperationNotPermitted',
      (r) => `Load balancer '${r.physicalId}' cannot be deleted because deletion protection is enabled`,
    ),
  ],
  // The seam for nested stacks: the parent's resource fails with the child's failures.
  'AWS::CloudFormation::Stack': [
    {
      when: (r) => (state(r).failedResources?.length ?? 0) > 0,
      service: 'CloudFormation',
      status: 400,
      code: 'NotStabilized',
      handlerCode: 'NotStabilized',
      plain: true,
      message: (r) =>
        `Embedded stack ${r.physicalId} was not successfully deleted: The following resource(s) failed to delete: [${[...state(r).failedResources!].sort().join(', ')}].`,
    },
  ],
};

// Any other type whose spec has a protection property refuses with a generic text (no recorded AWS text).
function fallbackRules(type: string): readonly RefusalRule[] {
  const spec = resourceSpec(type);
  const hasProtection = spec && Object.keys(spec.properties).some((p) => PROTECTION_PROPERTIES.includes(p));
  if (!hasProtection) return [];
  return [
    protection(
      type.split('::')[1] ?? 'Service',
      'InvalidRequest',
      (r) => `${type} ${r.physicalId} has deletion protection enabled. Disable deletion protection first.`,
    ),
  ];
}

export function deleteRefusal(resource: WorldResource, req: ResourceRequest, world?: WorldAccess): Refusal | undefined {
  for (const rule of REFUSALS[resource.type] ?? fallbackRules(resource.type)) {
    if (!rule.when(resource, world)) continue;
    const message = rule.message(resource, req);
    if (rule.plain) return { ok: false, code: rule.code, reason: message };
    return {
      ok: false,
      code: rule.code,
      reason: `Resource handler returned message: "${message} (Service: ${rule.service}, Status Code: ${rule.status}, Request ID: ${randomUUID()})" (RequestToken: ${req.requestToken}, HandlerErrorCode: ${rule.handlerCode})`,
    };
  }
  return undefined;
}
