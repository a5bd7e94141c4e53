// How stacks look in DescribeStacks and ListStacks: the members AWS includes, and when it includes them.
import type { DriftDetectionRecord, StackRecord } from '../../storage/index.js';
import type { Stack, StackSummary } from '../../generated/cloudformation.js';
import { lastOperationsOf } from '../../state-machine/operationHistory.js';

const MASK = '****';
const SHOWS_DELETION_TIME = new Set([
  'ROLLBACK_IN_PROGRESS',
  'ROLLBACK_FAILED',
  'ROLLBACK_COMPLETE',
  'DELETE_IN_PROGRESS',
  'DELETE_FAILED',
  'DELETE_COMPLETE',
]);

export function describeStack(stack: StackRecord, drift?: DriftDetectionRecord): Stack {
  const { doc } = stack;
  const deleted = stack.status === 'DELETE_COMPLETE';
  const parameters = doc.parameters.map((p) =>
    doc.noEchoKeys.includes(p.ParameterKey) ? { ...p, ParameterValue: MASK } : p,
  );
  return {
    StackId: stack.stackId,
    StackName: stack.name,
    ChangeSetId: deleted ? undefined : doc.changeSetId,
    Description: doc.description,
    Parameters: parameters.length ? parameters : undefined,
    CreationTime: new Date(stack.createdAt),
    DeletionTime: SHOWS_DELETION_TIME.has(stack.status) && doc.deletionTime ? new Date(doc.deletionTime) : undefined,
    LastUpdatedTime: stack.updatedAt ? new Date(stack.updatedAt) : undefined,
    RollbackConfiguration: doc.rollbackConfiguration,
    StackStatus: stack.status,
    StackStatusReason: stack.statusReason,
    DisableRollback: doc.disableRollback,
    DeploymentConfig: doc.deploymentConfig,
    NotificationARNs: doc.notificationARNs,
    TimeoutInMinutes: doc.timeoutInMinutes,
    Capabilities: doc.capabilities,
    Outputs: doc.outputs.length ? doc.outputs : undefined,
    RoleARN: doc.roleARN,
    Tags: doc.tags,
    EnableTerminationProtection: deleted ? undefined : doc.terminationProtection,
    DriftInformation: driftInformation(drift),
    RetainExceptOnCreate: doc.retainExceptOnCreate,
    LastOperations: lastOperationsOf(doc),
    ParentId: doc.parentId,
    RootId: doc.rootId,
    AliasName: deleted ? undefined : doc.aliasName,
  };
}

export function summarizeStack(stack: StackRecord, drift?: DriftDetectionRecord): StackSummary {
  return {
    StackId: stack.stackId,
    StackName: stack.name,
    TemplateDescription: stack.doc.description,
    CreationTime: new Date(stack.createdAt),
    LastUpdatedTime: stack.updatedAt ? new Date(stack.updatedAt) : undefined,
    DeletionTime: stack.deletedAt ? new Date(stack.deletedAt) : undefined,
    StackStatus: stack.status,
    StackStatusReason: stack.statusReason,
    DriftInformation: driftInformation(drift),
    LastOperations: lastOperationsOf(stack.doc),
    ParentId: stack.doc.parentId,
    RootId: stack.doc.rootId,
  };
}

/** The stack's newest completed drift detection, or NOT_CHECKED when none has completed. */
function driftInformation(drift: DriftDetectionRecord | undefined) {
  return drift?.stackDriftStatus
    ? { StackDriftStatus: drift.stackDriftStatus, LastCheckTimestamp: new Date(drift.startedAt) }
    : { StackDriftStatus: 'NOT_CHECKED' };
}
