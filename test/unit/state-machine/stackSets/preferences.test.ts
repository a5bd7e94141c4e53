// OperationPreferences as a stack set operation applies them: failures tolerated per region, accounts run at once,
// the order of regions, and the refusals of preferences AWS does not take.
import { describe, expect, it } from 'vitest';
import {
  checkPreferences,
  concurrencyOf,
  regionOrder,
  toleranceOf,
  type Preferences,
} from '../../../../state-machine/stackSets/preferences.js';

describe('toleranceOf', () => {
  it.each<[Preferences, number, number]>([
    [{}, 10, 0],
    [{ FailureToleranceCount: 3 }, 10, 3],
    [{ FailureTolerancePercentage: 50 }, 5, 2],
    [{ FailureTolerancePercentage: 10 }, 5, 0],
    [{ FailureTolerancePercentage: 100 }, 4, 4],
  ])('%j over %i accounts tolerates %i failures', (prefs, n, expected) => {
    expect(toleranceOf(prefs, n)).toBe(expected);
  });
});

describe('concurrencyOf', () => {
  it.each<[Preferences, number, number]>([
    [{}, 10, 1],
    [{ MaxConcurrentCount: 4, FailureToleranceCount: 9 }, 10, 4],
    [{ MaxConcurrentCount: 4 }, 10, 1],
    [{ MaxConcurrentCount: 4, FailureToleranceCount: 1 }, 10, 2],
    [{ MaxConcurrentCount: 4, ConcurrencyMode: 'SOFT_FAILURE_TOLERANCE' }, 10, 4],
    [{ MaxConcurrentPercentage: 30, FailureTolerancePercentage: 100 }, 10, 3],
    [{ MaxConcurrentPercentage: 10, FailureTolerancePercentage: 100 }, 5, 1],
  ])('%j over %i accounts runs %i at once', (prefs, n, expected) => {
    expect(concurrencyOf(prefs, n)).toBe(expected);
  });
});

describe('regionOrder', () => {
  it('puts RegionOrder first, then the other regions in the order given, ignoring regions not targeted', () => {
    expect(
      regionOrder({ RegionOrder: ['eu-west-1', 'ap-south-1', 'us-east-1'] }, ['us-east-1', 'us-west-2', 'eu-west-1']),
    ).toEqual(['eu-west-1', 'us-east-1', 'us-west-2']);
  });
});

describe('checkPreferences', () => {
  it.each<[Preferences, string]>([
    [
      { FailureToleranceCount: 1, FailureTolerancePercentage: 10 },
      'FailureToleranceCount and FailureTolerancePercentage cannot both be specified',
    ],
    [
      { MaxConcurrentCount: 1, MaxConcurrentPercentage: 10 },
      'MaxConcurrentCount and MaxConcurrentPercentage cannot both be specified',
    ],
    [{ MaxConcurrentCount: 0 }, "Value '0' at 'operationPreferences.maxConcurrentCount' failed to satisfy constraint"],
    [{ FailureTolerancePercentage: 101 }, "Value '101' at 'operationPreferences.failureTolerancePercentage'"],
    [
      { RegionConcurrencyType: 'SOMETIMES' as 'PARALLEL' },
      'Member must satisfy enum value set: [SEQUENTIAL, PARALLEL]',
    ],
  ])('refuses %j with ValidationError', (prefs, message) => {
    expect(() => checkPreferences(prefs)).toThrow(
      expect.objectContaining({ code: 'ValidationError', message: expect.stringContaining(message) }),
    );
  });

  it('accepts none, and what AWS accepts', () => {
    expect(checkPreferences()).toEqual({});
    const prefs: Preferences = { MaxConcurrentCount: 2, FailureToleranceCount: 1, RegionConcurrencyType: 'PARALLEL' };
    expect(checkPreferences(prefs)).toBe(prefs);
  });
});
