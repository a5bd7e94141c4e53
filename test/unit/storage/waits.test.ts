// The signal hub over the database (storage/waits.ts): what a wait needs is still there for the next process on the
// same file, and a request left open by that process is taken over once, by the same resource and RequestType.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../storage/index.js';
import { SignalHub } from '../../../resources/signalHub.js';
import { REAL_TIMERS } from '../../../resources/timers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Two processes, one after the other, on one database file. */
function twoProcesses(): [SignalHub, () => SignalHub] {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-waits-'));
  dirs.push(dir);
  const first = Store.open(join(dir, 'cfn.db'));
  return [
    new SignalHub(REAL_TIMERS, first.waits),
    () => {
      first.close();
      return new SignalHub(REAL_TIMERS, Store.open(join(dir, 'cfn.db')).waits);
    },
  ];
}

describe('SignalHub over the waits table', () => {
  it('keeps a wait start, signals and a response that arrived before the restart', () => {
    const [hub, restart] = twoProcesses();
    const since = hub.beginWait('arn:s', 'Wait', 'handle');
    hub.signalResource('arn:s|Instance', { UniqueId: 'i-1', Status: 'SUCCESS' });
    hub.open('req-1', { stackId: 'arn:s', logicalId: 'Thing', requestType: 'Create', since: 5 });
    hub.respond('req-1', { Status: 'SUCCESS' });
    const next = restart();
    expect(next.beginWait('arn:s', 'Wait', 'handle')).toBe(since);
    expect(next.signalsOf('arn:s|Instance')).toEqual([{ UniqueId: 'i-1', Status: 'SUCCESS' }]);
    expect(next.waitingOn('arn:s')).toEqual(new Set(['Wait', 'Thing']));
    expect(next.adopt('arn:s', 'Thing', 'Update')).toBeUndefined();
    expect(next.adopt('arn:s', 'Thing', 'Create')).toBe('req-1');
    expect(next.request('req-1')).toMatchObject({ since: 5, response: { Status: 'SUCCESS' } });
    // taken over once: a second action of this process would send its own
    expect(next.adopt('arn:s', 'Thing', 'Create')).toBeUndefined();
  });

  it('remembers why a request finished, and abandons the open waits of a stack not resumed', () => {
    const [hub, restart] = twoProcesses();
    hub.open('done', { stackId: 'arn:s', logicalId: 'A', requestType: 'Create', since: 1 });
    hub.close('done', 'answered or timed out');
    hub.open('open', { stackId: 'arn:s', logicalId: 'B', requestType: 'Create', since: 1 });
    hub.beginWait('arn:s', 'C', 'signals');
    const next = restart();
    expect(next.finishedReason('done')).toBe('answered or timed out');
    next.abandon('arn:s', 'cancelled');
    expect(next.request('open')).toBeUndefined();
    expect(next.finishedReason('open')).toBe('cancelled');
    expect(next.waitingOn('arn:s')).toEqual(new Set());
  });

  it('ends a wait: the next one of the same resource starts anew', () => {
    const [hub] = twoProcesses();
    const first = hub.beginWait('arn:s', 'W', 'handle');
    hub.endWait('arn:s', 'W', 'handle');
    expect(hub.waitingOn('arn:s')).toEqual(new Set());
    expect(hub.beginWait('arn:s', 'W', 'handle')).toBeGreaterThanOrEqual(first);
  });
});
