// Access key ids that carry their account, as AWS's do: the account sits in bits 7-46 of the base32 body.
import { describe, expect, it } from 'vitest';
import { accountOfAccessKeyId, temporaryAccessKeyId } from '../../../domain/accessKeys.js';

describe('access key ids', () => {
  it('reads the account an AWS key id encodes (an example key id published with its account)', () => {
    expect(accountOfAccessKeyId('ASIAY34FZKBOKMUTVV7A')).toBe('609629065308');
  });

  it.each(['000000000000', '123456789012', '999999999999'])('hands out ASIA key ids that decode to %s', (account) => {
    const key = temporaryAccessKeyId(account);
    expect(key).toMatch(/^ASIA[A-Z2-7]{16}$/);
    expect(accountOfAccessKeyId(key)).toBe(account);
  });

  it('reads no account from key ids of another form', () => {
    expect(accountOfAccessKeyId('test')).toBeUndefined();
    expect(accountOfAccessKeyId('123456789012')).toBeUndefined();
  });
});
