// The pieces behind waits and generated values: ISO 8601 durations, CreationPolicy defaults, the signal hub,
// custom resource property strings, generated secrets, deletion protection.
import { describe, expect, it } from 'vitest';
import { creationPolicyOf, durationMs } from '../../../resources/creationPolicy.js';
import { SignalHub } from '../../../resources/signalHub.js';
import { ManualTimers } from '../../helpers/timers.js';
import { stringifyScalars } from '../../../resources/customResources.js';
import { randomPassword, secretValue } from '../../../resources/secretsManager.js';
import { protectedFromDeletion } from '../../../resources/refusals.js';
import type { WorldResource } from '../../../storage/world.js';

describe('durationMs and creationPolicyOf', () => {
  it.each([
    ['PT15M', 900_000],
    ['PT1H30M', 5_400_000],
    ['PT45S', 45_000],
    ['P1D', 86_400_000],
    ['PT0.5S', 500],
  ])('%s = %d ms', (text, ms) => {
    expect(durationMs(text)).toBe(ms);
  });

  it.each(['15M', 'P', 'PT', 'soon', ''])('%j is not a duration', (text) => {
    expect(durationMs(text)).toBeUndefined();
  });

  it('defaults Count to 1 and Timeout to five minutes, and caps at twelve hours', () => {
    expect(creationPolicyOf({ ResourceSignal: {} })).toEqual({ count: 1, timeoutMs: 300_000 });
    expect(creationPolicyOf({ ResourceSignal: { Count: '3', Timeout: 'PT24H' } })).toEqual({
      count: 3,
      timeoutMs: 43_200_000,
    });
    expect(creationPolicyOf({ AutoScalingCreationPolicy: {} })).toBeUndefined();
  });
});

describe('SignalHub', () => {
  it('wakes a waiter on notify, times out at the deadline, and ends every wait on cancelAll', async () => {
    const hub = new SignalHub();
    const woken = hub.wait('k', Date.now() + 5000);
    hub.notify('k');
    expect(await woken).toBe('notified');
    const timers = new ManualTimers();
    const onManual = new SignalHub(timers);
    const timedOut = onManual.wait('k', timers.now() + 5000);
    await timers.advance(4999);
    expect(timers.dueIn()).toEqual([1]);
    await timers.advance(1);
    expect(await timedOut).toBe('timeout');
    expect(timers.dueIn()).toEqual([]);
    const cancelled = hub.wait('other', Date.now() + 5000);
    hub.cancelAll();
    expect(await cancelled).toBe('aborted');
  });

  it('keeps one signal per UniqueId, and remembers finished requests', () => {
    const hub = new SignalHub();
    hub.signalResource('r', { UniqueId: 'a', Status: 'FAILURE' });
    hub.signalResource('r', { UniqueId: 'a', Status: 'SUCCESS' });
    expect(hub.signalsOf('r')).toEqual([{ UniqueId: 'a', Status: 'SUCCESS' }]);
    hub.open('req', { stackId: 's', logicalId: 'L', requestType: 'Create', since: Date.now() });
    hub.close('req', 'answered');
    expect(hub.request('req')).toBeUndefined();
    expect(hub.finishedReason('req')).toBe('answered');
  });
});

describe('custom resource properties', () => {
  it('reach the handler with every scalar as a string', () => {
    expect(stringifyScalars({ N: 5, B: true, L: [1, 'x', { D: 2.5 }], S: 's', Z: null })).toEqual({
      N: '5',
      B: 'true',
      L: ['1', 'x', { D: '2.5' }],
      S: 's',
      Z: null,
    });
  });
});

describe('generated secrets', () => {
  it('honour the length and exclusions, with one of each included type', () => {
    for (let i = 0; i < 20; i++) {
      const p = randomPassword({ PasswordLength: 12, ExcludePunctuation: true, ExcludeCharacters: 'aeiou' });
      expect(p).toMatch(/^[A-Za-z0-9]{12}$/);
      expect(p).not.toMatch(/[aeiou]/);
      expect(p).toMatch(/[A-Z]/);
      expect(p).toMatch(/[0-9]/);
    }
  });

  it('merge into SecretStringTemplate under GenerateStringKey, or keep a given SecretString', () => {
    const value = JSON.parse(
      secretValue({ GenerateSecretString: { SecretStringTemplate: '{"user":"u"}', GenerateStringKey: 'pw' } }),
    );
    expect(value.user).toBe('u');
    expect(value.pw).toHaveLength(32);
    expect(secretValue({ SecretString: 'given' })).toBe('given');
  });
});

describe('protectedFromDeletion', () => {
  const resource = (properties: Record<string, unknown>, state: WorldResource['state'] = {}): WorldResource => ({
    account: '1',
    region: 'r',
    type: 'T',
    physicalId: 'p',
    createdAt: '',
    properties,
    attributes: {},
    state,
  });

  it('reads the template property in its several spellings, and the control API overrides it', () => {
    expect(protectedFromDeletion(resource({ DeletionProtection: true }))).toBe(true);
    expect(protectedFromDeletion(resource({ DeletionProtectionEnabled: 'true' }))).toBe(true);
    expect(protectedFromDeletion(resource({ DeletionProtection: 'ACTIVE' }))).toBe(true);
    expect(protectedFromDeletion(resource({ DeletionProtection: 'INACTIVE' }))).toBe(false);
    expect(
      protectedFromDeletion(
        resource({ LoadBalancerAttributes: [{ Key: 'deletion_protection.enabled', Value: 'true' }] }),
      ),
    ).toBe(true);
    expect(protectedFromDeletion(resource({ DeletionProtection: true }, { deletionProtection: false }))).toBe(false);
    expect(protectedFromDeletion(resource({}, { deletionProtection: true }))).toBe(true);
  });
});
