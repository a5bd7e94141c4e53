// Failures on demand: from a resource's `Metadata: cfn-local:` block or from faults registered over the control API.
// Throttling codes are transient: like CloudFormation's resource handlers, the action retries them (up to
// TRANSIENT_RETRIES more attempts) before it fails with "Rate exceeded".
import { v4 as uuidv4 } from 'uuid';

/** Error codes a handler retries by itself; a fault with one of them clears if it fails fewer times than the retries. */
export const TRANSIENT_CODES: ReadonlySet<string> = new Set([
  'Throttling',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'Throttled',
  'SlowDown',
]);
export const TRANSIENT_RETRIES = 4;

export type FaultAction = 'Create' | 'Update' | 'Delete';
export const FAULT_ACTIONS: readonly FaultAction[] = ['Create', 'Update', 'Delete'];

export interface FaultSpec {
  id: string;
  stackName?: string;
  logicalId?: string;
  resourceType?: string;
  action: FaultAction;
  message?: string;
  code?: string;
  /** Attempts that fail before the action succeeds; unset means every attempt. */
  times?: number;
  delayMs?: number;
}

export interface FaultTarget {
  stackId: string;
  stackName: string;
  logicalId: string;
  type: string;
  metadata: unknown;
  requestToken: string;
}

export interface FaultOutcome {
  failure?: { code: string; reason: string };
  delayMs: number;
}

interface MetadataFault {
  Fail?: string[] | string;
  Message?: string;
  Code?: string;
  Times?: number;
  DelayMs?: number;
}

function metadataFault(metadata: unknown): MetadataFault | undefined {
  if (!metadata || typeof metadata !== 'object') return undefined;
  const block = (metadata as Record<string, unknown>)['cfn-local'];
  return block && typeof block === 'object' ? block : undefined;
}

const defaultReason = (token: string, code: string) =>
  TRANSIENT_CODES.has(code)
    ? `Resource handler returned message: "Rate exceeded (Service: CloudFormation, Status Code: 400, Request ID: ${uuidv4()})" (RequestToken: ${token}, HandlerErrorCode: Throttling)`
    : `Resource handler returned message: "We encountered an internal error. Please try again." (RequestToken: ${token}, HandlerErrorCode: ${code})`;

/** The longest delay a timer can hold (Node falls back to 1 ms past it, with a warning). */
export const MAX_DELAY_MS = 2_147_483_647;

/** `DelayMs` of a Metadata block: a whole number of milliseconds in range, or the reason the resource fails. */
function metadataDelay(value: unknown): number | string {
  if (value === undefined) return 0;
  const ms = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof ms === 'number' && Number.isInteger(ms) && ms >= 0 && ms <= MAX_DELAY_MS) return ms;
  return `cfn-local Metadata: DelayMs must be a whole number of milliseconds from 0 to ${MAX_DELAY_MS} (got ${JSON.stringify(value)})`;
}

export class Faults {
  private readonly specs = new Map<string, FaultSpec>();
  private readonly attempts = new Map<string, number>();

  add(spec: Omit<FaultSpec, 'id'>): FaultSpec {
    const fault = { ...spec, id: uuidv4() };
    this.specs.set(fault.id, fault);
    return fault;
  }

  list(): FaultSpec[] {
    return [...this.specs.values()];
  }

  remove(id?: string): boolean {
    if (id === undefined) {
      this.specs.clear();
      this.attempts.clear();
      return true;
    }
    this.attempts.delete(`api:${id}`);
    return this.specs.delete(id);
  }

  /** Forgets the attempts counted for a deleted stack's Metadata faults: its id never comes back. */
  forgetStack(stackId: string): void {
    const prefix = `meta:${stackId}:`;
    for (const key of this.attempts.keys()) if (key.startsWith(prefix)) this.attempts.delete(key);
  }

  /** What this attempt of an action should do: fail, be delayed, or neither. Counts the attempt. */
  check(action: FaultAction, target: FaultTarget): FaultOutcome {
    const fromMetadata = metadataFault(target.metadata);
    const fails = fromMetadata?.Fail === undefined ? [] : ([] as string[]).concat(fromMetadata.Fail);
    const delay = metadataDelay(fromMetadata?.DelayMs);
    if (typeof delay === 'string') return { failure: { code: 'InvalidRequest', reason: delay }, delayMs: 0 };
    let delayMs = delay;
    if (fails.includes(action)) {
      const failure = this.attempt(
        `meta:${target.stackId}:${target.logicalId}:${action}`,
        fromMetadata?.Times,
        {
          code: fromMetadata?.Code ?? 'InternalFailure',
          message: fromMetadata?.Message,
        },
        target.requestToken,
      );
      if (failure) return { failure, delayMs };
    }
    for (const spec of this.specs.values()) {
      if (spec.action !== action) continue;
      if (spec.stackName && spec.stackName !== target.stackName) continue;
      if (spec.logicalId && spec.logicalId !== target.logicalId) continue;
      if (spec.resourceType && spec.resourceType !== target.type) continue;
      delayMs = Math.max(delayMs, spec.delayMs ?? 0);
      const failure = this.attempt(
        `api:${spec.id}`,
        spec.times,
        {
          code: spec.code ?? 'InternalFailure',
          message: spec.message,
        },
        target.requestToken,
      );
      this.dropIfUsedUp(spec);
      if (failure) return { failure, delayMs };
    }
    return { delayMs };
  }

  /** A fault whose failing attempts are all made and that delays nothing can do nothing more: it leaves the list. */
  private dropIfUsedUp(spec: FaultSpec): void {
    if (spec.times === undefined || spec.delayMs) return;
    if ((this.attempts.get(`api:${spec.id}`) ?? 0) < spec.times) return;
    this.remove(spec.id);
  }

  private attempt(key: string, times: number | undefined, fault: { code: string; message?: string }, token: string) {
    const retries = TRANSIENT_CODES.has(fault.code) ? TRANSIENT_RETRIES : 0;
    for (let tries = 0; tries <= retries; tries++) {
      const made = this.attempts.get(key) ?? 0;
      this.attempts.set(key, made + 1);
      if (times !== undefined && made >= times) return undefined;
    }
    return { code: fault.code, reason: fault.message ?? defaultReason(token, fault.code) };
  }
}
