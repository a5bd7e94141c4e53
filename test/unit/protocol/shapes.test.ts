import { describe, it, expect } from 'vitest';
import * as sdk from '@aws-sdk/client-cloudformation';
import { KNOWN_ACTIONS, isKnownAction, operationShapes, shape } from '../../../server/protocol/index.js';

describe('generated shapes', () => {
  it('has one operation per SDK command', () => {
    const commands = Object.keys(sdk)
      .filter((k) => /^[A-Z]\w*Command$/.test(k))
      .map((k) => k.slice(0, -'Command'.length))
      .sort();
    expect([...KNOWN_ACTIONS]).toEqual(commands);
    expect(isKnownAction('CreateStack')).toBe(true);
    expect(isKnownAction('CreateStacks')).toBe(false);
  });

  it('names input and output structures, null for Unit output', () => {
    expect(operationShapes('CreateStack')).toEqual({ input: 'CreateStackInput', output: 'CreateStackOutput' });
    expect(operationShapes('DeleteStack')).toEqual({ input: 'DeleteStackInput', output: null });
    expect(operationShapes('Nope')).toBeUndefined();
  });

  it("keeps the model's member order (not the SDK's required-first order) and marks required members", () => {
    const s = shape('CreateStackInstancesInput');
    expect(s.type).toBe('structure');
    const members = (s as { members: { name: string; required?: boolean }[] }).members;
    expect(members.map((m) => m.name).slice(0, 4)).toEqual([
      'StackSetName',
      'Accounts',
      'DeploymentTargets',
      'Regions',
    ]);
    expect(members.filter((m) => m.required).map((m) => m.name)).toEqual(['StackSetName', 'Regions']);
  });

  it('types lists, maps and numbers', () => {
    expect(shape('Tags')).toEqual({ type: 'list', member: 'Tag' });
    expect(shape('StringList')).toEqual({ type: 'list', member: 'string' });
    expect(shape('StringMap')).toEqual({ type: 'map', key: 'string', value: 'string' });
    const summary = shape('ResourceScanSummary') as { members: { name: string; shape: string }[] };
    expect(summary.members.find((m) => m.name === 'PercentageCompleted')?.shape).toBe('double');
    const stack = shape('Stack') as { members: { name: string; shape: string }[] };
    expect(stack.members.find((m) => m.name === 'TimeoutInMinutes')?.shape).toBe('integer');
    expect(stack.members.find((m) => m.name === 'CreationTime')?.shape).toBe('timestamp');
    expect(() => shape('NoSuchShape')).toThrow(/unknown shape/);
  });
});
