// state-machine/providerCalls.ts sleep(): a delay that ends leaves no listener behind on the operation's signal.
import { describe, it, expect } from 'vitest';
import { getEventListeners } from 'node:events';
import { sleep } from '../../../state-machine/providerCalls.js';

describe('sleep', () => {
  it('removes its abort listener when the delay ends', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) expect(await sleep(1, controller.signal)).toBe(true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('resolves false when the signal aborts first', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    expect(await slept).toBe(false);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
