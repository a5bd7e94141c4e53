// Drift detection: each checked resource of a stack compared with what the account holds now (the world row, or a
// backend provider's `read`), its result kept in storage/drifts.ts. A stack's detection runs in the background, as
// AWS's does; a nested stack resource is checked by detecting its child and takes the child's verdict.
import { v4 as uuidv4 } from 'uuid';
import type {
  DriftDetectionRecord,
  ResourceDriftRecord,
  ResourceRecord,
  StackRecord,
  Store,
} from '../storage/index.js';
import { DRIFT_CHECKED_TYPES } from '../resources/driftSupport.js';
import { compareProperties } from '../resources/drift/compare.js';
import { providerFor } from '../resources/registry.js';
import type { Clock } from './transitions.js';
import { REAL_TIMERS, type Timers } from '../resources/timers.js';
import { accountScope, resolveDynamicIn, worldAccess } from './runtime.js';
import { ownedBy, rowOf } from '../resources/worldRows.js';

export interface DriftDeps {
  store: Store;
  clock: Clock;
  /** What the background detection is scheduled on (tests hold it with manual timers). */
  timers?: Timers;
}

const NESTED_STACK = 'AWS::CloudFormation::Stack';
/** Resource statuses with nothing in the account to compare (never created, or already gone). */
const NOTHING_TO_CHECK = new Set(['CREATE_FAILED', 'DELETE_COMPLETE', 'CREATE_IN_PROGRESS']);

/** Starts a stack's detection: recorded DETECTION_IN_PROGRESS at once, completed in the background. */
export function startStackDrift(deps: DriftDeps, stack: StackRecord, logicalIds?: string[]): string {
  const detection = newDetection(deps, stack);
  (deps.timers ?? REAL_TIMERS).setTimeout(() => void runDetection(deps, stack, detection, logicalIds), 0);
  return detection.detectionId;
}

/** A stack's detection run to its end (a stack set's DETECT_DRIFT operation waits for each instance's). */
export function runStackDrift(deps: DriftDeps, stack: StackRecord): Promise<DriftDetectionRecord> {
  return runDetection(deps, stack, newDetection(deps, stack));
}

function newDetection(deps: DriftDeps, stack: StackRecord): DriftDetectionRecord {
  const detection: DriftDetectionRecord = {
    detectionId: uuidv4(),
    stackId: stack.stackId,
    startedAt: deps.clock.now().toISOString(),
    status: 'DETECTION_IN_PROGRESS',
    reason: 'User Initiated',
  };
  deps.store.drifts.saveDetection(detection);
  return detection;
}

async function runDetection(
  deps: DriftDeps,
  stack: StackRecord,
  detection: DriftDetectionRecord,
  logicalIds?: string[],
): Promise<DriftDetectionRecord> {
  const { store } = deps;
  try {
    const resources = store.resources
      .byStack(stack.stackId)
      .filter((r) => !logicalIds?.length || logicalIds.includes(r.logicalId));
    let drifted = 0;
    for (const r of resources) {
      const result = await detectResource(deps, stack, r);
      if (!result) continue;
      store.drifts.saveResource(result);
      if (result.StackResourceDriftStatus === 'MODIFIED' || result.StackResourceDriftStatus === 'DELETED') drifted++;
    }
    Object.assign(detection, {
      status: 'DETECTION_COMPLETE',
      reason: undefined,
      stackDriftStatus: drifted ? 'DRIFTED' : 'IN_SYNC',
      driftedCount: drifted,
    });
  } catch (err) {
    Object.assign(detection, {
      status: 'DETECTION_FAILED',
      stackDriftStatus: 'UNKNOWN',
      reason: `Stack (${stack.stackId}) failed with message: ${(err as Error).message}`,
    });
  }
  try {
    store.drifts.saveDetection(detection);
  } catch {
    // the store closed under us (server stopping): the detection stays in progress, as an interrupted one would
  }
  return detection;
}

/** DetectStackResourceDrift: one resource's drift now, kept as its latest result (the stack's status is left). */
export async function detectResourceDrift(
  deps: DriftDeps,
  stack: StackRecord,
  r: ResourceRecord,
): Promise<ResourceDriftRecord | undefined> {
  const result = await detectResource(deps, stack, r);
  if (result) deps.store.drifts.saveResource(result);
  return result;
}

/** One resource's drift now; undefined for a resource with nothing in the account to compare. */
async function detectResource(
  deps: DriftDeps,
  stack: StackRecord,
  r: ResourceRecord,
): Promise<ResourceDriftRecord | undefined> {
  if (!r.physicalId || NOTHING_TO_CHECK.has(r.status)) return undefined;
  const base = {
    StackId: stack.stackId,
    LogicalResourceId: r.logicalId,
    PhysicalResourceId: r.physicalId,
    ResourceType: r.type,
    Timestamp: deps.clock.now().toISOString(),
  };
  if (r.type === NESTED_STACK) return { ...base, StackResourceDriftStatus: await nestedVerdict(deps, r.physicalId) };
  if (!DRIFT_CHECKED_TYPES.has(r.type)) return { ...base, StackResourceDriftStatus: 'NOT_CHECKED' };
  const actual = await actualProperties(deps, stack, r);
  if (!actual) return { ...base, StackResourceDriftStatus: 'DELETED' };
  const { expected, actual: read, differences } = compareProperties(r.type, expectedProperties(deps, stack, r), actual);
  return {
    ...base,
    ExpectedProperties: JSON.stringify(expected),
    ActualProperties: JSON.stringify(read),
    PropertyDifferences: differences,
    StackResourceDriftStatus: differences.length ? 'MODIFIED' : 'IN_SYNC',
  };
}

/** The template's values as the stack resolved them; a dynamic reference is compared by the value it resolves to. */
function expectedProperties(deps: DriftDeps, stack: StackRecord, r: ResourceRecord): Record<string, unknown> {
  const resolved = resolveDynamicIn({ store: deps.store, stack }, r.doc.properties ?? {}, true) as Record<
    string,
    unknown
  >;
  // a reference that no longer resolves cannot be compared
  return Object.fromEntries(Object.entries(resolved).filter(([, v]) => !JSON.stringify(v).includes('{{resolve:')));
}

/** What the account holds now: the provider's read (a backend resource), else the world row's properties. */
async function actualProperties(
  deps: DriftDeps,
  stack: StackRecord,
  r: ResourceRecord,
): Promise<Record<string, unknown> | undefined> {
  const scope = accountScope(stack);
  const world = worldAccess(deps.store, scope, () => deps.clock.now());
  const provider = providerFor(r.type);
  if (provider.read) {
    return provider.read(world, {
      ...scope,
      stackName: stack.name,
      stackId: stack.stackId,
      logicalId: r.logicalId,
      type: r.type,
      properties: r.doc.properties ?? {},
      physicalId: r.physicalId,
      requestToken: uuidv4(),
    });
  }
  return rowOf(world, ownedBy(r))?.properties;
}

/** A nested stack resource drifts when its child does: the child is detected on its own, with its own record. */
async function nestedVerdict(deps: DriftDeps, childId: string): Promise<string> {
  const child = deps.store.stacks.byId(childId);
  if (!child || child.status === 'DELETE_COMPLETE') return 'DELETED';
  const result = await runDetection(deps, child, newDetection(deps, child));
  if (result.status !== 'DETECTION_COMPLETE') return 'NOT_CHECKED';
  return result.stackDriftStatus === 'DRIFTED' ? 'MODIFIED' : 'IN_SYNC';
}
