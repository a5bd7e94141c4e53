// ClientRequestToken memory (state-machine/tokens.ts): a repeat of a remembered token is recognised, another
// action's token refused, and a stack keeps only its newest TOKENS_KEPT tokens however often it is deployed.
import { describe, expect, it } from 'vitest';
import { rememberToken, repeatOf, TOKENS_KEPT } from '../../../state-machine/tokens.js';
import type { StackRecord } from '../../../storage/index.js';

const stack = () => ({ doc: {} }) as unknown as StackRecord;

describe('ClientRequestToken memory', () => {
  it('recognises a repeat and refuses a token used for another action', () => {
    const s = stack();
    rememberToken(s, 'create-1', 'CreateStack');
    expect(repeatOf(s, 'create-1', 'CreateStack')).toBe(true);
    expect(repeatOf(s, 'other', 'UpdateStack')).toBe(false);
    expect(() => repeatOf(s, 'create-1', 'UpdateStack')).toThrow(/same client request token create-1/);
  });

  it('keeps the newest tokens only', () => {
    const s = stack();
    for (let i = 0; i < TOKENS_KEPT + 50; i++) rememberToken(s, `deploy-${i}`, 'UpdateStack');
    expect(Object.keys(s.doc.tokens!)).toHaveLength(TOKENS_KEPT);
    expect(repeatOf(s, `deploy-${TOKENS_KEPT + 49}`, 'UpdateStack')).toBe(true);
    expect(repeatOf(s, `deploy-50`, 'UpdateStack')).toBe(true);
    expect(repeatOf(s, `deploy-49`, 'UpdateStack')).toBe(false);
  });
});
