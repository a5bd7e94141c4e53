// Deletes the service refuses, from the state of the physical resource: data still held, deletion protection,
// attachments or dependants held outside the stack. Texts from ../shared/reference/seeds-map.md §4, in the
// registry handler's format.
import type { WorldResource } from '../storage/world.js';
import type { Refusal, ResourceRequest } from './provider.js';

interface RefusalRule {
  when: (r: WorldResource) => boolean;
  service: string;
  status: number;
  code: string;
  handlerCode: string;
  message: (r: WorldResource, req: ResourceRequest) => string;
}

const holdsData = (r: WorldResource) => (r.state.dataItems ?? 0) > 0;
const attached = (r: WorldResource) => (r.state.attachedOutside?.length ?? 0) > 0;
const protectedFromDeletion = (r: WorldResource) =>
  r.state.deletionProtection === true || r.properties.DeletionProtection === true || r.properties.DeletionProtection === 'true' ||
  r.properties.DeletionProtectionEnabled === true || r.properties.DeletionProtectionEnabled === 'true';

const RULES: Record<string, RefusalRule[]> = {
  'AWS::S3::Bucket': [{ when: holdsData, service: 'S3', status: 409, code: 'BucketNotEmpty', handlerCode: 'GeneralServiceException', message: () => 'The bucket you tried to delete is not empty' }],
  'AWS::ECR::Repository': [{
    when: (r) => holdsData(r) && r.properties.EmptyOnDelete !== true && r.properties.EmptyOnDelete !== 'true',
    service: 'Ecr', status: 400, code: 'RepositoryNotEmptyException', handlerCode: 'GeneralServiceException',
    message: (r, req) => `The repository with name '${r.physicalId}' in registry with id '${req.account}' cannot be deleted because it still contains images`,
  }],
  'AWS::IAM::Role': [{ when: attached, service: 'Iam', status: 409, code: 'DeleteConflict', handlerCode: 'GeneralServiceException', message: () => 'Cannot delete entity, must detach all policies first.' }],
  'AWS::IAM::User': [{ when: attached, service: 'Iam', status: 409, code: 'DeleteConflict', handlerCode: 'GeneralServiceException', message: () => 'Cannot delete entity, must detach all policies first.' }],
  'AWS::IAM::Group': [{ when: attached, service: 'Iam', status: 409, code: 'DeleteConflict', handlerCode: 'GeneralServiceException', message: () => 'Cannot delete entity, must detach all policies first.' }],
  'AWS::IAM::ManagedPolicy': [{ when: attached, service: 'Iam', status: 409, code: 'DeleteConflict', handlerCode: 'GeneralServiceException', message: () => 'Cannot delete a policy attached to entities.' }],
  'AWS::EC2::VPC': [{ when: attached, service: 'Ec2', status: 400, code: 'DependencyViolation', handlerCode: 'InvalidRequest', message: (r) => `The vpc '${r.physicalId}' has dependencies and cannot be deleted.` }],
  'AWS::EC2::Subnet': [{ when: attached, service: 'Ec2', status: 400, code: 'DependencyViolation', handlerCode: 'InvalidRequest', message: (r) => `The subnet '${r.physicalId}' has dependencies and cannot be deleted.` }],
  'AWS::EC2::SecurityGroup': [{ when: attached, service: 'Ec2', status: 400, code: 'DependencyViolation', handlerCode: 'InvalidRequest', message: (r) => `resource ${r.physicalId} has a dependent object` }],
  'AWS::EC2::InternetGateway': [{ when: attached, service: 'Ec2', status: 400, code: 'DependencyViolation', handlerCode: 'InvalidRequest', message: (r) => `The internetGateway '${r.physicalId}' has dependencies and cannot be deleted.` }],
  'AWS::EC2::RouteTable': [{ when: attached, service: 'Ec2', status: 400, code: 'DependencyViolation', handlerCode: 'InvalidRequest', message: (r) => `The routeTable '${r.physicalId}' has dependencies and cannot be deleted.` }],
  'AWS::RDS::DBCluster': [{ when: protectedFromDeletion, service: 'Rds', status: 400, code: 'InvalidParameterCombination', handlerCode: 'InvalidRequest', message: () => 'Cannot delete protected Cluster, please disable deletion protection and try again.' }],
  'AWS::RDS::DBInstance': [{ when: protectedFromDeletion, service: 'Rds', status: 400, code: 'InvalidParameterCombination', handlerCode: 'InvalidRequest', message: () => 'Cannot delete protected DB Instance, please disable deletion protection and try again.' }],
  'AWS::DynamoDB::Table': [{ when: protectedFromDeletion, service: 'DynamoDb', status: 400, code: 'ValidationException', handlerCode: 'InvalidRequest', message: () => 'Resource cannot be deleted as it is currently protected against deletion. Disable deletion protection first.' }],
  'AWS::Logs::LogGroup': [{ when: protectedFromDeletion, service: 'CloudWatchLogs', status: 400, code: 'InvalidOperationException', handlerCode: 'InvalidRequest', message: (r) => `Log group ${r.physicalId} is protected from deletion. Disable deletion protection first.` }],
};

export function deleteRefusal(resource: WorldResource, req: ResourceRequest): Refusal | undefined {
  for (const rule of RULES[resource.type] ?? []) {
    if (!rule.when(resource)) continue;
    const message = rule.message(resource, req);
    return {
      ok: false,
      code: rule.code,
      reason: `Resource handler returned message: "${message} (Service: ${rule.service}, Status Code: ${rule.status}, Request ID: ${req.requestToken})" (RequestToken: ${req.requestToken}, HandlerErrorCode: ${rule.handlerCode})`,
    };
  }
  return undefined;
}
