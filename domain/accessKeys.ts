// domain/accessKeys: access key ids that carry their account, as AWS's do (since 2019 an AWS key id encodes its
// account in bits of its base32 body), so credentials handed out by STS land later calls in the same account.
import { randomBytes } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const KEY_ID = /^(AKIA|ASIA)[A-Z2-7]{16}$/;

function base32(bytes: Buffer): string {
  let bits = 0,
    value = 0,
    out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

function unbase32(text: string): Buffer {
  let bits = 0,
    value = 0;
  const out: number[] = [];
  for (const c of text) {
    value = ((value << 5) | BASE32.indexOf(c)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * A new temporary key id (`ASIA…`) for the account: the first six bytes after the prefix hold the account number
 * shifted left by seven bits, the rest is random.
 */
export function temporaryAccessKeyId(account: string): string {
  const bytes = randomBytes(10);
  const packed = (BigInt(account) << 7n) | BigInt(bytes[5] & 0x7f);
  for (let i = 5; i >= 0; i--) bytes[5 - i] = Number((packed >> BigInt(8 * i)) & 0xffn);
  return `ASIA${base32(bytes)}`;
}

/** The account an AWS-style key id (`AKIA…`, `ASIA…`) encodes; undefined for any other key id. */
export function accountOfAccessKeyId(keyId: string): string | undefined {
  if (!KEY_ID.test(keyId)) return undefined;
  const bytes = unbase32(keyId.slice(4));
  let packed = 0n;
  for (let i = 0; i < 6; i++) packed = (packed << 8n) | BigInt(bytes[i]);
  return String((packed & 0x7fffffffff80n) >> 7n).padStart(12, '0');
}
