// The attempts Faults counts (resources/faults.ts): a Metadata fault's `Times` per stack, a registered fault's per
// fault, and both forgotten once their stack or fault is gone, so a long-running server does not keep them.
import { describe, expect, it } from 'vitest';
import { Faults, type FaultTarget } from '../../../resources/faults.js';

const target = (stackId: string): FaultTarget => ({
  stackId,
  stackName: 'demo',
  logicalId: 'Queue',
  type: 'AWS::SQS::Queue',
  metadata: { 'cfn-local': { Fail: ['Create'], Times: 1 } },
  requestToken: 'token',
});

const fails = (faults: Faults, t: FaultTarget) => faults.check('Create', t).failure !== undefined;

describe('Faults attempts', () => {
  it('counts a Metadata fault per stack, and starts again for a stack forgotten', () => {
    const faults = new Faults();
    expect([fails(faults, target('a')), fails(faults, target('a'))]).toEqual([true, false]);
    expect(fails(faults, target('b'))).toBe(true);
    faults.forgetStack('a');
    expect([fails(faults, target('a')), fails(faults, target('b'))]).toEqual([true, false]);
  });

  it('drops a removed fault with its count', () => {
    const faults = new Faults();
    const plain = { ...target('a'), metadata: undefined };
    const fault = faults.add({ action: 'Create' });
    expect([fails(faults, plain), fails(faults, plain)]).toEqual([true, true]);
    expect(faults.remove(fault.id)).toBe(true);
    expect(fails(faults, plain)).toBe(false);
  });

  it('drops a fault once its times are used up, unless it still delays', () => {
    const faults = new Faults();
    const plain = { ...target('a'), metadata: undefined };
    const once = faults.add({ action: 'Create', times: 1 });
    const slow = faults.add({ action: 'Update', times: 0, delayMs: 5 });
    expect(fails(faults, plain)).toBe(true);
    expect(faults.list().map((f) => f.id)).toEqual([slow.id]);
    expect(faults.remove(once.id)).toBe(false);
  });
});
