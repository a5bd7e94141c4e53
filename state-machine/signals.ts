// What SignalResource does to the operation running on the stack: a new SUCCESS signal is published as an event of
// the signalled resource, then handed to the wait that counts it (resources/creationPolicy.ts).
import type { ResourceRecord, StackRecord } from '../storage/index.js';
import type { ResourceSignal } from '../resources/signalHub.js';
import { SIGNAL_REASONS, signalKey } from '../resources/creationPolicy.js';
import { actionInProgress } from './statuses.js';
import { recordResourceEvent } from './transitions.js';
import type { Engine } from './engine.js';

/**
 * "CloudFormation publishes valid signals to the stack events so that you track the number of signals sent"
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-attribute-creationpolicy.html).
 * A SUCCESS signal is an event of the resource under its in-progress status, e.g. `WebServer CREATE_IN_PROGRESS
 * Received SUCCESS signal with UniqueId i-010d33cec2d164ba7` just before `WebServer CREATE_COMPLETE`
 * (https://github.com/code-dot-org/code-dot-org/pull/33795; UPDATE_IN_PROGRESS during an update), carrying the
 * resource's physical id and properties as every event of it does (Eucalyptus's clone fills both:
 * https://github.com/eucalyptus/eucalyptus/blob/master/clc/modules/cloudformation/src/main/java/com/eucalyptus/cloudformation/entity/StackEventEntityManager.java).
 * A FAILURE signal has no event of its own: it is the reason of the CREATE_FAILED that follows ("Received FAILURE
 * signal with UniqueId …", https://github.com/aws/aws-parallelcluster/wiki/Stack-Creation-Failures). A UniqueId
 * sent again is "a retransmission of the previously sent signal" that AWS ignores
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/using-cfn-waitcondition.html): it counts once and
 * is published once.
 */
export function receiveResourceSignal(
  engine: Engine,
  stack: StackRecord,
  stored: ResourceRecord,
  signal: ResourceSignal,
): void {
  const hub = engine.deps.providerEnv?.signals;
  if (!hub) return;
  const key = signalKey(stack.stackId, stored.logicalId);
  const rt = engine.running.get(stack.stackId);
  // the running operation's record is the live one: its physical id may be newer than the stored row's
  const resource = rt?.resources.get(stored.logicalId) ?? stored;
  const repeated = hub.signalsOf(key).some((s) => s.UniqueId === signal.UniqueId);
  if (signal.Status === 'SUCCESS' && !repeated && actionInProgress(resource.status)) {
    recordResourceEvent(rt ?? engine.operationContext(), resource, SIGNAL_REASONS.success(signal.UniqueId));
  }
  hub.signalResource(key, signal);
}
