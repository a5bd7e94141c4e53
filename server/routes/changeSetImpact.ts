// The data-loss report, a cfn-local extension beside the AWS API: GET /_cfn-local/change-sets/{change set ARN}/impact
// says, for each replacement or removal of a resource that holds data, whether the data would be lost, retained or
// cannot be told, and which replacements cannot proceed at all. It reads the change set and the simulated account only.
import type { FastifyInstance } from 'fastify';
import type { ChangeSetRecord, Store } from '../../storage/index.js';
import type { WorldResource } from '../../storage/world.js';
import { docOf } from '../../state-machine/changeSets.js';
import type { ResourceChange } from '../../template/diff.js';
import { KNOWN_AFTER_APPLY } from '../../template/diff.js';
import { resourceSpec } from '../../resources/spec.js';
import { deleteRefusal } from '../../resources/refusals.js';
import { NESTED_STACK_TYPE } from '../../resources/nestedStacks.js';
import type { WorldAccess } from '../../resources/provider.js';
import { partitionOf, urlSuffixOf } from '../../resources/regions.js';
import { worldAccess } from '../../state-machine/runtime.js';

/** Types whose data the simulated account counts (`state.dataItems`): objects, log events, messages, images. */
const DATA_TYPES = new Set(['AWS::S3::Bucket', 'AWS::Logs::LogGroup', 'AWS::SQS::Queue', 'AWS::ECR::Repository']);
/** What each PolicyAction does with the data of the copy that goes away. */
const POLICY_OUTCOME: Record<string, 'lost' | 'retained'> = {
  Delete: 'lost',
  Retain: 'retained',
  Snapshot: 'retained',
  ReplaceAndDelete: 'lost',
  ReplaceAndRetain: 'retained',
  ReplaceAndSnapshot: 'retained',
};

export interface DataLossEntry {
  logicalResourceId: string;
  physicalResourceId?: string;
  resourceType: string;
  action: 'Remove' | 'Replace' | 'ConditionalReplace';
  policyAction?: string;
  data: 'lost' | 'retained' | 'unknown';
  /** Items the simulated account holds (objects, events, messages, images), when it counts them. */
  dataItems?: number;
  reason: string;
  /** The service would refuse the delete (a non-empty bucket): the data stays, and the operation reports a failure. */
  deleteRefused?: { code: string; message: string };
  /** A removed nested stack takes its whole child tree along: the resources in it that hold data. */
  nestedResources?: NestedDataHolder[];
}

export interface NestedDataHolder {
  stackName: string;
  logicalResourceId: string;
  physicalResourceId?: string;
  resourceType: string;
  dataItems?: number;
}

export interface BlockedReplacement {
  logicalResourceId: string;
  physicalResourceId?: string;
  resourceType: string;
  cause: 'fixed-name' | 'deletion-protection';
  message: string;
}

export function changeSetImpact(store: Store, cs: ChangeSetRecord) {
  const doc = docOf(cs);
  const world = (c: ResourceChange) =>
    c.PhysicalResourceId ? store.world.get(cs.account, cs.region, c.ResourceType, c.PhysicalResourceId) : undefined;
  // The refusal rules read the account (a namespace holds the tables made anywhere in it); they never write.
  const view = worldAccess(store, accountOf(cs), () => new Date());
  const dataLoss: DataLossEntry[] = [];
  const blockedReplacements: BlockedReplacement[] = [];
  for (const change of doc.changes) {
    const action =
      change.Action === 'Remove'
        ? 'Remove'
        : change.Replacement === 'True'
          ? 'Replace'
          : change.Replacement === 'Conditional'
            ? 'ConditionalReplace'
            : undefined;
    if (!action) continue;
    const found = world(change);
    const entry = dataLossOf(change, action, found, cs, view);
    if (entry && change.ResourceType === NESTED_STACK_TYPE && change.PhysicalResourceId) {
      entry.nestedResources = dataHoldersUnder(store, change.PhysicalResourceId);
    }
    if (entry) dataLoss.push(entry);
    if (action !== 'Remove') blockedReplacements.push(...blockersOf(change, found));
  }
  const count = (d: DataLossEntry['data']) => dataLoss.filter((e) => e.data === d).length;
  return {
    changeSetId: cs.changeSetId,
    changeSetName: cs.name,
    stackId: cs.stackId,
    status: cs.status,
    executionStatus: cs.executionStatus,
    summary: {
      lost: count('lost'),
      retained: count('retained'),
      unknown: count('unknown'),
      blocked: blockedReplacements.length,
    },
    dataLoss,
    blockedReplacements,
  };
}

function dataLossOf(
  change: ResourceChange,
  action: DataLossEntry['action'],
  found: WorldResource | undefined,
  cs: ChangeSetRecord,
  view: WorldAccess,
): DataLossEntry | undefined {
  const counted =
    DATA_TYPES.has(change.ResourceType) && found
      ? (found.state.dataItems ?? 0) + (found.state.objects ?? 0)
      : undefined;
  const outcome = POLICY_OUTCOME[change.PolicyAction ?? 'Delete'] ?? 'unknown';
  // A refused delete is reported for any type: a namespace holding tables loses nothing, but the operation fails it.
  const refusal =
    found && action !== 'ConditionalReplace' && outcome !== 'retained'
      ? deleteRefusal(found, refusalRequest(cs, change), view)
      : undefined;
  if (!resourceSpec(change.ResourceType)?.isStateful && !(counted && counted > 0) && !refusal) return undefined;
  const base = {
    logicalResourceId: change.LogicalResourceId,
    physicalResourceId: change.PhysicalResourceId,
    resourceType: change.ResourceType,
    action,
    policyAction: change.PolicyAction,
    ...(counted !== undefined ? { dataItems: counted } : {}),
  };
  if (action === 'ConditionalReplace') {
    return {
      ...base,
      data: 'unknown',
      reason: 'The replacement depends on values known only at execution (Replacement: Conditional).',
    };
  }
  if (outcome === 'retained') return { ...base, data: 'retained', reason: `${change.PolicyAction} keeps the data.` };
  if (refusal) {
    return {
      ...base,
      data: 'retained',
      reason: 'The service refuses the delete, so the data stays and the operation reports the failed delete.',
      deleteRefused: { code: refusal.code, message: refusal.reason },
    };
  }
  if (counted === 0) return { ...base, data: 'lost', reason: 'The resource is deleted; it holds no data now.' };
  return {
    ...base,
    data: 'lost',
    reason: `${change.PolicyAction ?? 'Delete'} deletes the resource and the data it holds.`,
  };
}

/** The resources of a nested stack and of its own nested stacks that hold data (stateful, or counted non-empty). */
function dataHoldersUnder(store: Store, stackId: string): NestedDataHolder[] {
  const stack = store.stacks.byId(stackId);
  if (!stack || stack.status === 'DELETE_COMPLETE') return [];
  const out: NestedDataHolder[] = [];
  for (const r of store.resources.byStack(stackId)) {
    if (!r.physicalId || r.status === 'DELETE_COMPLETE') continue;
    if (r.type === NESTED_STACK_TYPE) {
      out.push(...dataHoldersUnder(store, r.physicalId));
      continue;
    }
    const found = store.world.get(stack.account, stack.region, r.type, r.physicalId);
    const counted = DATA_TYPES.has(r.type) && found ? (found.state.dataItems ?? 0) : undefined;
    if (!resourceSpec(r.type)?.isStateful && !(counted && counted > 0)) continue;
    out.push({
      stackName: stack.name,
      logicalResourceId: r.logicalId,
      physicalResourceId: r.physicalId,
      resourceType: r.type,
      ...(counted !== undefined ? { dataItems: counted } : {}),
    });
  }
  return out;
}

const accountOf = (cs: ChangeSetRecord) => ({
  account: cs.account,
  region: cs.region,
  partition: partitionOf(cs.region),
  urlSuffix: urlSuffixOf(cs.region),
});

function refusalRequest(cs: ChangeSetRecord, change: ResourceChange) {
  return {
    ...accountOf(cs),
    stackName: '',
    stackId: cs.stackId,
    logicalId: change.LogicalResourceId,
    type: change.ResourceType,
    properties: {},
    physicalId: change.PhysicalResourceId,
    requestToken: 'impact-preview',
  };
}

/** A replacement with an unchanged custom name collides with itself; a deletion-protected old copy cannot go. */
function blockersOf(change: ResourceChange, found: WorldResource | undefined): BlockedReplacement[] {
  const out: BlockedReplacement[] = [];
  const base = {
    logicalResourceId: change.LogicalResourceId,
    physicalResourceId: change.PhysicalResourceId,
    resourceType: change.ResourceType,
  };
  const nameProperty = resourceSpec(change.ResourceType)?.nameProperty;
  const before = propertiesOf(change.BeforeContext);
  const after = propertiesOf(change.AfterContext);
  if (
    nameProperty &&
    after[nameProperty] !== undefined &&
    after[nameProperty] !== KNOWN_AFTER_APPLY &&
    JSON.stringify(after[nameProperty]) === JSON.stringify(before[nameProperty])
  ) {
    out.push({
      ...base,
      cause: 'fixed-name',
      // The ResourceStatusReason AWS gives when the update reaches this resource.
      message: `CloudFormation cannot update a stack when a custom-named resource requires replacing. Rename ${change.LogicalResourceId} and update the stack again.`,
    });
  }
  if (found && isDeletionProtected(found)) {
    out.push({
      ...base,
      cause: 'deletion-protection',
      message: `${change.PhysicalResourceId} has deletion protection on: the old copy cannot be deleted after the new one is created.`,
    });
  }
  return out;
}

function isDeletionProtected(r: WorldResource): boolean {
  const on = (v: unknown) => v === true || v === 'true';
  return (
    on(r.state.deletionProtection) || on(r.properties.DeletionProtection) || on(r.properties.DeletionProtectionEnabled)
  );
}

function propertiesOf(context: string | undefined): Record<string, unknown> {
  return context ? ((JSON.parse(context) as { Properties?: Record<string, unknown> }).Properties ?? {}) : {};
}

const IMPACT_PATH = /^\/_cfn-local\/change-sets\/(.+)\/impact$/;

/** A wildcard route: an encoded change set ARN outgrows the router's 100-character limit on a path parameter. */
export function registerChangeSetImpact(app: FastifyInstance, deps: { store: Store }): void {
  app.get('/_cfn-local/change-sets/*', async (req, reply) => {
    const match = IMPACT_PATH.exec(req.url.split('?')[0]);
    if (!match)
      return reply
        .status(404)
        .send({ error: 'NotFound', message: 'use /_cfn-local/change-sets/{url-encoded change set ARN}/impact' });
    const arn = decodeURIComponent(match[1]);
    const cs = deps.store.changeSets.byId(arn);
    if (!cs || cs.deleted)
      return reply.status(404).send({ error: 'ChangeSetNotFound', message: `ChangeSet [${arn}] does not exist` });
    return changeSetImpact(deps.store, cs);
  });
}
