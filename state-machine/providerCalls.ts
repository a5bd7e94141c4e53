// How the engine calls a provider for one resource: the request it sends, injected faults and delays.
import { v4 as uuidv4 } from 'uuid';
import type { ResourceRecord } from '../storage/index.js';
import type { ResourceRequest } from '../resources/provider.js';
import type { FaultAction } from '../resources/faults.js';
import { REAL_TIMERS, type Timers } from '../resources/timers.js';
import { resolveDynamicIn, type Runtime } from './runtime.js';

/** The provider's request; a delete's (`lenient`) keeps a dynamic reference that no longer resolves as written. */
export function request(
  rt: Runtime,
  r: ResourceRecord,
  properties: Record<string, unknown>,
  signal?: AbortSignal,
  lenient = false,
): ResourceRequest {
  return {
    signal,
    ...rt.accountScope,
    stackName: rt.stack.name,
    stackId: rt.stack.stackId,
    logicalId: r.logicalId,
    type: r.type,
    // the provider sees the values of dynamic references; the stack's records keep the references
    properties: resolveDynamicIn(rt, properties, lenient) as Record<string, unknown>,
    physicalId: r.physicalId,
    requestToken: rt.token ?? uuidv4(),
    env: rt.env,
  };
}

export function sleep(ms: number, signal: AbortSignal, timers: Timers = REAL_TIMERS): Promise<boolean> {
  if (ms <= 0) return Promise.resolve(!signal.aborted);
  return new Promise((resolve) => {
    // The abort listener goes when the sleep ends, or a stack of many delayed resources piles up listeners on one
    // signal (MaxListenersExceededWarning past ten).
    const onAbort = () => {
      timers.clearTimeout(timer);
      resolve(false);
    };
    const timer = timers.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The injected fault (and delay) for this attempt of an action, counted as an attempt. */
export function checkFault(rt: Runtime, r: ResourceRecord, action: FaultAction) {
  const def = rt.template.model.resources.get(r.logicalId);
  return rt.faults.check(action, {
    stackId: rt.stack.stackId,
    stackName: rt.stack.name,
    logicalId: r.logicalId,
    type: r.type,
    metadata: def?.metadata ?? r.doc.metadata,
    requestToken: rt.token ?? uuidv4(),
  });
}

/** Applies injected faults and delays; returns a failure reason, 'cancelled', or undefined to proceed. */
export async function faultGate(rt: Runtime, r: ResourceRecord, action: FaultAction, signal: AbortSignal) {
  const outcome = checkFault(rt, r, action);
  if (!(await sleep(outcome.delayMs, signal, rt.env?.timers))) return 'cancelled' as const;
  return outcome.failure?.reason;
}
