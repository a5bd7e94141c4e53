// What happens between "Resource creation Initiated" and CREATE_COMPLETE: the provider's own wait (a WaitCondition
// counting its handle's signals), then a CreationPolicy's ResourceSignal count, fed by SignalResource.
import type {
  Provider,
  ProviderEnv,
  ProviderResult,
  Provisioned,
  Refusal,
  ResourceRequest,
  WorldAccess,
} from './provider.js';

export interface CreationPolicy {
  count: number;
  timeoutMs: number;
}

/** AWS's default ResourceSignal timeout is five minutes, its maximum twelve hours. */
const DEFAULT_TIMEOUT_MS = 5 * 60_000;
const MAX_TIMEOUT_MS = 12 * 3_600_000;

/** Milliseconds of an ISO 8601 duration (`PT15M`, `PT1H30M`, `PT45S`, `P1D`); undefined when malformed. */
export function durationMs(value: unknown): number | undefined {
  const m = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(String(value ?? ''));
  if (!m || String(value) === 'P' || String(value).endsWith('T')) return undefined;
  const [, d = '0', h = '0', min = '0', s = '0'] = m;
  return ((Number(d) * 24 + Number(h)) * 60 + Number(min)) * 60_000 + Number(s) * 1000;
}

/** The ResourceSignal part of an evaluated CreationPolicy, if there is one. */
export function creationPolicyOf(value: unknown): CreationPolicy | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const signal = (value as Record<string, unknown>).ResourceSignal;
  if (!signal || typeof signal !== 'object') return undefined;
  const { Count, Timeout } = signal as Record<string, unknown>;
  const count = Count === undefined ? 1 : Number(Count);
  const timeoutMs = Timeout === undefined ? DEFAULT_TIMEOUT_MS : (durationMs(Timeout) ?? DEFAULT_TIMEOUT_MS);
  return { count: Number.isFinite(count) && count > 0 ? count : 1, timeoutMs: Math.min(timeoutMs, MAX_TIMEOUT_MS) };
}

/** The hub key of a resource's SignalResource signals. */
export const signalKey = (stackId: string, logicalId: string) => `${stackId}|${logicalId}`;

const failed = (reason: string): Refusal => ({ ok: false, code: 'NotStabilized', reason });

// Texts as CloudFormation writes them in CREATE_FAILED (AWS ParallelCluster docs quote the first; the second is
// in countless cfn-signal reports and in Eucalyptus's CloudFormation clone), and in the event of each SUCCESS
// signal received (state-machine/signals.ts).
export const SIGNAL_REASONS = {
  success: (uniqueId: string) => `Received SUCCESS signal with UniqueId ${uniqueId}`,
  failure: (uniqueId: string) => `Received FAILURE signal with UniqueId ${uniqueId}`,
  timeout: (count: number) => `Failed to receive ${count} resource signal(s) within the specified duration`,
};

/**
 * Waits for `policy.count` SUCCESS signals; any FAILURE signal, the timeout, or an abort ends the wait. The signals
 * and the wait's start are kept in the database: after a restart the wait resumes with the same deadline.
 */
export async function awaitResourceSignals(
  env: ProviderEnv,
  req: Pick<ResourceRequest, 'stackId' | 'logicalId'>,
  policy: CreationPolicy,
  signal?: AbortSignal,
): Promise<{ ok: true } | Refusal | 'cancelled'> {
  const key = signalKey(req.stackId, req.logicalId);
  const deadline = env.signals.beginWait(req.stackId, req.logicalId, 'signals') + policy.timeoutMs;
  try {
    for (;;) {
      const signals = env.signals.signalsOf(key);
      const failure = signals.find((s) => s.Status === 'FAILURE');
      if (failure) return failed(SIGNAL_REASONS.failure(failure.UniqueId));
      if (signals.filter((s) => s.Status === 'SUCCESS').length >= policy.count) return { ok: true };
      const outcome = await env.signals.wait(key, deadline, signal);
      if (outcome === 'aborted') return 'cancelled';
      if (outcome === 'timeout') return failed(SIGNAL_REASONS.timeout(policy.count));
    }
  } finally {
    env.signals.forgetSignals(key);
    env.signals.endWait(req.stackId, req.logicalId, 'signals');
  }
}

/**
 * Everything a new resource waits for after "Resource creation Initiated": the provider's stabilize step, then the
 * CreationPolicy. Returns the final result, or 'cancelled' when the operation stopped waiting.
 */
export async function awaitCreation(
  provider: Provider,
  world: WorldAccess,
  req: ResourceRequest,
  created: Provisioned,
  policy: CreationPolicy | undefined,
): Promise<ProviderResult | 'cancelled'> {
  let result: ProviderResult = created;
  if (provider.stabilize) {
    result = await provider.stabilize(world, req, created);
    if (!result.ok || req.signal?.aborted) return req.signal?.aborted ? 'cancelled' : result;
  }
  if (!policy || !req.env) return result;
  const signals = await awaitResourceSignals(req.env, req, policy, req.signal);
  if (signals === 'cancelled') return 'cancelled';
  return signals.ok ? result : signals;
}
