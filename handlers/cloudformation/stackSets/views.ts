// The wire views of stack sets, instances, operations and results, from their records.
import type {
  StackInstance,
  StackInstanceSummary,
  StackSet,
  StackSetOperation,
  StackSetOperationResultSummary,
  StackSetOperationSummary,
  StackSetSummary,
  StackSetDriftDetectionDetails,
} from '../../../generated/cloudformation.js';
import type {
  DriftDetails,
  OperationResultRecord,
  SetOperationRecord,
  StackInstanceRecord,
  StackSetRecord,
} from '../../../storage/index.js';
import { stackSetArn } from '../../../state-machine/stackSets/runner.js';
import { NOT_CHECKED } from '../../../state-machine/stackSets/drift.js';

const date = (iso: string | undefined) => (iso ? new Date(iso) : undefined);

function driftView(d: DriftDetails | undefined): StackSetDriftDetectionDetails {
  const details = d ?? NOT_CHECKED;
  return { ...details, LastDriftCheckTimestamp: date(details.LastDriftCheckTimestamp) };
}

export function describeSet(set: StackSetRecord, instances: StackInstanceRecord[]): StackSet {
  const { doc } = set;
  const service = doc.permissionModel === 'SERVICE_MANAGED';
  return {
    StackSetName: set.name,
    StackSetId: set.stackSetId,
    Description: doc.description,
    Status: set.status,
    TemplateBody: doc.templateBody,
    Parameters: doc.parameters,
    Capabilities: doc.capabilities,
    Tags: doc.tags,
    StackSetARN: stackSetArn(set),
    AdministrationRoleARN: doc.administrationRoleARN,
    ExecutionRoleName: doc.executionRoleName,
    StackSetDriftDetectionDetails: driftView(doc.drift),
    AutoDeployment: service ? (doc.autoDeployment ?? { Enabled: false }) : undefined,
    PermissionModel: doc.permissionModel,
    OrganizationalUnitIds: service ? doc.deployedUnits.map((u) => u.ou) : undefined,
    ManagedExecution: doc.managedExecution,
    Regions: [...new Set(instances.map((i) => i.region))],
  };
}

export function summarizeSet(set: StackSetRecord): StackSetSummary {
  const { doc } = set;
  return {
    StackSetName: set.name,
    StackSetId: set.stackSetId,
    Description: doc.description,
    Status: set.status,
    AutoDeployment: doc.permissionModel === 'SERVICE_MANAGED' ? (doc.autoDeployment ?? { Enabled: false }) : undefined,
    PermissionModel: doc.permissionModel,
    DriftStatus: doc.drift?.DriftStatus ?? 'NOT_CHECKED',
    LastDriftCheckTimestamp: date(doc.drift?.LastDriftCheckTimestamp),
    ManagedExecution: doc.managedExecution,
  };
}

export function summarizeInstance(i: StackInstanceRecord): StackInstanceSummary {
  const { doc } = i;
  return {
    StackSetId: i.stackSetId,
    Region: i.region,
    Account: i.account,
    StackId: doc.stackId,
    Status: doc.status,
    StatusReason: doc.statusReason,
    StackInstanceStatus: { DetailedStatus: doc.detailedStatus },
    OrganizationalUnitId: doc.organizationalUnitId,
    DriftStatus: doc.driftStatus,
    LastDriftCheckTimestamp: date(doc.lastDriftCheck),
    LastOperationId: doc.lastOperationId,
  };
}

export function describeInstance(i: StackInstanceRecord): StackInstance {
  return { ...summarizeInstance(i), ParameterOverrides: i.doc.parameterOverrides };
}

export function describeOperation(op: SetOperationRecord): StackSetOperation {
  const { doc } = op;
  return {
    OperationId: op.operationId,
    StackSetId: op.stackSetId,
    Action: doc.action,
    Status: doc.status,
    OperationPreferences: doc.preferences,
    RetainStacks: doc.retainStacks,
    AdministrationRoleARN: doc.administrationRoleARN,
    ExecutionRoleName: doc.executionRoleName,
    CreationTimestamp: new Date(op.createdAt),
    EndTimestamp: date(doc.endedAt),
    DeploymentTargets: doc.deploymentTargets,
    StackSetDriftDetectionDetails: doc.action === 'DETECT_DRIFT' ? driftView(doc.drift) : undefined,
    StatusReason: doc.statusReason,
    StatusDetails: doc.failedCount === undefined ? undefined : { FailedStackInstancesCount: doc.failedCount },
  };
}

export function summarizeOperation(op: SetOperationRecord): StackSetOperationSummary {
  const d = describeOperation(op);
  return {
    OperationId: d.OperationId,
    Action: d.Action,
    Status: d.Status,
    CreationTimestamp: d.CreationTimestamp,
    EndTimestamp: d.EndTimestamp,
    StatusReason: d.StatusReason,
    StatusDetails: d.StatusDetails,
    OperationPreferences: d.OperationPreferences,
  };
}

export function summarizeResult(r: OperationResultRecord): StackSetOperationResultSummary {
  return {
    Account: r.account,
    Region: r.region,
    Status: r.doc.status,
    StatusReason: r.doc.statusReason,
    AccountGateResult: r.doc.accountGate,
    OrganizationalUnitId: r.doc.organizationalUnitId,
  };
}
