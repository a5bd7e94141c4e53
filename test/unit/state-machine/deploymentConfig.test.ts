// The Express mode tables (state-machine/deploymentConfig.ts): each EXPRESS_FOLLOW_UPS row on a stack an EXPRESS
// operation left failed, and the rollback each DeploymentConfig gives.
import { describe, expect, it } from 'vitest';
import {
  EXPRESS_FOLLOW_UPS,
  EXPRESS_REFUSALS,
  checkFollowUp,
  rollbackDisabled,
  type ConfiguredOperation,
} from '../../../state-machine/deploymentConfig.js';

const failed = { status: 'UPDATE_FAILED' as const, doc: { deploymentConfig: { Mode: 'EXPRESS' } } };
const refusal = (op: ConfiguredOperation, mode: string) => {
  try {
    checkFollowUp(op, failed, { Mode: mode });
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

describe('EXPRESS_FOLLOW_UPS', () => {
  it.each(Object.entries(EXPRESS_FOLLOW_UPS) as [ConfiguredOperation, string][])('%s: %s', (op, rule) => {
    const expected = {
      sameMode: [EXPRESS_REFUSALS.followUp('UPDATE_FAILED'), undefined],
      refused: [EXPRESS_REFUSALS.rollbackStack(), EXPRESS_REFUSALS.rollbackStack()],
      free: [undefined, undefined],
    }[rule]!;
    expect([refusal(op, 'STANDARD'), refusal(op, 'EXPRESS')]).toEqual(expected);
  });

  it('binds only a failed stack whose last operation was EXPRESS', () => {
    expect(() => checkFollowUp('UpdateStack', { ...failed, status: 'UPDATE_COMPLETE' }, undefined)).not.toThrow();
    expect(() =>
      checkFollowUp('UpdateStack', { status: 'UPDATE_FAILED', doc: { deploymentConfig: { Mode: 'STANDARD' } } }, {}),
    ).not.toThrow();
  });
});

describe('rollbackDisabled', () => {
  it.each([
    [{ Mode: 'EXPRESS' }, undefined, true],
    [{ Mode: 'EXPRESS', DisableRollback: false }, true, false],
    [{ Mode: 'STANDARD' }, true, true],
    [{ Mode: 'STANDARD', DisableRollback: true }, false, true],
    [undefined, undefined, undefined],
  ])('%j with DisableRollback %s → %s', (config, given, expected) => {
    expect(rollbackDisabled(config, given)).toBe(expected);
  });
});
