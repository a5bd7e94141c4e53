// echo: how much of a caller's value an error message repeats.
import { describe, expect, it } from 'vitest';
import { MAX_ECHO, echo, stackIdNotFound } from '../../../domain/errors.js';

describe('echo', () => {
  it('repeats a value of MAX_ECHO characters whole', () => {
    const value = 'a'.repeat(MAX_ECHO);
    expect(echo(value)).toBe(value);
  });

  it('cuts a longer value at MAX_ECHO characters and marks the cut', () => {
    expect(echo('a'.repeat(MAX_ECHO + 1))).toBe(`${'a'.repeat(MAX_ECHO)}...`);
  });

  it('writes a non-string value as text', () => {
    expect(echo(42)).toBe('42');
  });

  it('bounds the "does not exist" factories', () => {
    expect(stackIdNotFound('s'.repeat(10 * 1024 * 1024)).message.length).toBeLessThan(MAX_ECHO + 64);
  });
});
