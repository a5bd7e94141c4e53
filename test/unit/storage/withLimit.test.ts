// withLimit (storage/db.ts): a literal LIMIT per page size, since a bound `LIMIT ?` is recompiled on every run.
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { withLimit } from '../../../storage/db.js';

describe('withLimit', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER)');
  for (let n = 0; n < 10; n++) db.prepare('INSERT INTO t VALUES (?)').run(n);
  const newest = withLimit(db, 'SELECT n FROM t WHERE n < ? ORDER BY n DESC');

  it('reads at most `limit` rows, with the other parameters still bound', () => {
    expect(newest(3).all(8)).toEqual([{ n: 7 }, { n: 6 }, { n: 5 }]);
    expect(newest(1).all(100)).toEqual([{ n: 9 }]);
  });

  it('prepares one statement per limit and reuses it', () => {
    expect(newest(3)).toBe(newest(3));
    expect(newest(3)).not.toBe(newest(4));
  });

  it('refuses anything but a row count, so nothing else reaches the SQL text', () => {
    expect(() => newest(1.5)).toThrow('not a row limit');
    expect(() => newest(-1)).toThrow('not a row limit');
    expect(() => newest(Number('1; DROP TABLE t'))).toThrow('not a row limit');
  });
});
