// Randomness for generated names and ids: a pluggable source (seeded in tests) and a stable hash for derived values.
import { randomBytes } from 'node:crypto';

/**
 * A source of randomness: each call returns a non-empty string of random characters (ideally [A-Za-z0-9]).
 * Providers take one as a parameter so tests are deterministic; `cryptoRandom` is the production source.
 */
export type RandomSource = () => string;

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const HEX = '0123456789abcdef';
export const DIGITS = '0123456789';

const ALNUM_INDEX = new Map(Array.from(ALNUM).map((c, i) => [c, i]));

/** `n` characters of `alphabet`, drawn from the source (each source character picks one output character). */
export function randomChars(random: RandomSource, n: number, alphabet: string = ALNUM): string {
  let out = '';
  while (out.length < n) {
    const chunk = random();
    if (chunk.length === 0) throw new Error('RandomSource returned an empty string');
    for (let i = 0; i < chunk.length && out.length < n; i++) {
      const index = ALNUM_INDEX.get(chunk[i]) ?? chunk.charCodeAt(i);
      out += alphabet[index % alphabet.length];
    }
  }
  return out;
}

/** A random v4-shaped UUID from the source. */
export function randomUuid(random: RandomSource): string {
  const h = randomChars(random, 32, HEX);
  const variant = HEX[8 + (parseInt(h[16], 16) % 4)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The production source: 32 characters at a time from the operating system's CSPRNG, read in 4 KiB batches. */
export const cryptoRandom: RandomSource = (() => {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 32 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    let out = '';
    for (let i = 0; i < 32; i++) out += ALNUM[pool[at + i] % ALNUM.length];
    at += 32;
    return out;
  };
})();

/** A deterministic source for tests (mulberry32 over the seed). */
export function seededRandom(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    let out = '';
    for (let i = 0; i < 16; i++) {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      out += ALNUM[((t ^ (t >>> 14)) >>> 0) % ALNUM.length];
    }
    return out;
  };
}

/** Stable characters of `alphabet` derived from the parts: the same parts always give the same string. */
export function stableChars(n: number, alphabet: string, ...parts: string[]): string {
  const key = parts.join('\u0000');
  let out = '';
  for (let seed = 0; out.length < n; seed++) {
    let h = hash53(key, seed);
    for (let i = 0; i < 6 && out.length < n; i++) {
      out += alphabet[h % alphabet.length];
      h = Math.floor(h / alphabet.length);
    }
  }
  return out;
}

/** A stable hex string derived from the parts, for values that must not change between calls (derived ids, labels). */
export function stableHex(n: number, ...parts: string[]): string {
  return stableChars(n, HEX, ...parts);
}

// cyrb53: a fast, well-mixed 53-bit string hash (not cryptographic; these values are labels, not secrets).
function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
