// OperationPreferences: the order of regions, how many accounts of a region run at once, and how many may fail in a
// region before the operation stops there and cancels what is left, as AWS's stack set operations apply them.
import { validationError } from '../../domain/errors.js';
import type { StackSetOperationPreferences } from '../../generated/cloudformation.js';

export type Preferences = StackSetOperationPreferences;

function exclusive(prefs: Preferences, a: keyof Preferences, b: keyof Preferences): void {
  if (prefs[a] !== undefined && prefs[b] !== undefined) {
    throw validationError(`${a} and ${b} cannot both be specified`);
  }
}

function range(prefs: Preferences, key: keyof Preferences, min: number, max?: number): void {
  const v = prefs[key] as number | undefined;
  if (v === undefined) return;
  if (v < min || (max !== undefined && v > max)) {
    throw validationError(
      `1 validation error detected: Value '${v}' at 'operationPreferences.${key[0].toLowerCase()}${key.slice(1)}' failed to satisfy constraint: Member must have value ${max === undefined ? `greater than or equal to ${min}` : `less than or equal to ${max}`}`,
    );
  }
}

/** AWS's checks of the preferences a call sends. */
export function checkPreferences(prefs: Preferences = {}): Preferences {
  exclusive(prefs, 'FailureToleranceCount', 'FailureTolerancePercentage');
  exclusive(prefs, 'MaxConcurrentCount', 'MaxConcurrentPercentage');
  range(prefs, 'FailureToleranceCount', 0);
  range(prefs, 'FailureTolerancePercentage', 0, 100);
  range(prefs, 'MaxConcurrentCount', 1);
  range(prefs, 'MaxConcurrentPercentage', 1, 100);
  const type = prefs.RegionConcurrencyType;
  if (type !== undefined && type !== 'SEQUENTIAL' && type !== 'PARALLEL') {
    throw validationError(
      `1 validation error detected: Value '${type}' at 'operationPreferences.regionConcurrencyType' failed to satisfy constraint: Member must satisfy enum value set: [SEQUENTIAL, PARALLEL]`,
    );
  }
  const mode = prefs.ConcurrencyMode;
  if (mode !== undefined && mode !== 'STRICT_FAILURE_TOLERANCE' && mode !== 'SOFT_FAILURE_TOLERANCE') {
    throw validationError(
      `1 validation error detected: Value '${mode}' at 'operationPreferences.concurrencyMode' failed to satisfy constraint: Member must satisfy enum value set: [STRICT_FAILURE_TOLERANCE, SOFT_FAILURE_TOLERANCE]`,
    );
  }
  return prefs;
}

/** Failures a region of `n` accounts tolerates: the count, or the percentage rounded down. */
export function toleranceOf(prefs: Preferences, n: number): number {
  if (prefs.FailureToleranceCount !== undefined) return prefs.FailureToleranceCount;
  if (prefs.FailureTolerancePercentage !== undefined) return Math.floor((prefs.FailureTolerancePercentage * n) / 100);
  return 0;
}

/**
 * Accounts of a region run at once: the count, or the percentage rounded down but at least one. In the default
 * STRICT_FAILURE_TOLERANCE mode it is at most one more than the tolerance ("the maximum number of concurrent
 * accounts can be at most one more than the failure tolerance"), so a region never has more failures in flight
 * than it tolerates.
 */
export function concurrencyOf(prefs: Preferences, n: number): number {
  let c = 1;
  if (prefs.MaxConcurrentCount !== undefined) c = prefs.MaxConcurrentCount;
  else if (prefs.MaxConcurrentPercentage !== undefined)
    c = Math.max(1, Math.floor((prefs.MaxConcurrentPercentage * n) / 100));
  if (prefs.ConcurrencyMode !== 'SOFT_FAILURE_TOLERANCE') c = Math.min(c, toleranceOf(prefs, n) + 1);
  return Math.max(1, c);
}

/** The regions in RegionOrder first, then the others in the order the targets name them. */
export function regionOrder(prefs: Preferences, regions: string[]): string[] {
  const first = (prefs.RegionOrder ?? []).filter((r) => regions.includes(r));
  return [...new Set([...first, ...regions])];
}
