// Opens the SQLite database (WAL, one writer) and applies numbered migrations; storage knows nothing of AWS.
import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MIGRATIONS } from './migrations/index.js';

export type Db = Database.Database;

let addon: string | object | undefined;

/**
 * better-sqlite3's native addon, found directly where its install builds it: by default it asks the `bindings`
 * package, which tries a dozen paths first (~3 ms of every start), and from the bundle (dist/cfn-local.bundle.cjs,
 * which carries better-sqlite3's JavaScript) `bindings` would look beside the bundle instead. A build kept
 * elsewhere is still found by `bindings`, asked from better-sqlite3's own folder.
 */
function nativeBinding(): string | object {
  if (addon) return addon;
  const root = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3')), '..');
  const built = join(root, 'build', 'Release', 'better_sqlite3.node');
  addon = existsSync(built)
    ? built
    : (createRequire(join(root, 'package.json'))('bindings') as (o: object) => object)({
        bindings: 'better_sqlite3.node',
        module_root: root,
      });
  return addon;
}

/**
 * SQLite's page cache, in KiB: the most memory the database holds beyond SQLite's own small structures. Once a
 * long-used file outgrows it, it is full and stays full, so it is a fixed share of the server's RSS
 * (bench/README.md, "Memory under sustained load"); pages beyond it are read from the operating system's cache.
 */
export const CACHE_KIB = 16_384;

/**
 * The database holds the URL-signing key (storage/secrets.ts) and every parameter's value: readable by its owner
 * only. A new file is created 0600 before SQLite opens it (SQLite gives its -wal and -shm files the same mode); an
 * older, wider one is narrowed where this user may (a file owned by another uid is left as it is).
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

export function narrow(path: string, mode: number): void {
  try {
    if (existsSync(path)) chmodSync(path, mode);
  } catch {
    // not this user's to change (a bind mount owned by another uid): it still opens
  }
}

export function openDb(file: string): Db {
  const onDisk = file !== ':memory:';
  if (onDisk) mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR });
  const created = onDisk && !existsSync(file);
  if (created) closeSync(openSync(file, 'wx', PRIVATE_FILE));
  if (onDisk) for (const suffix of ['', '-wal', '-shm']) narrow(`${file}${suffix}`, PRIVATE_FILE);
  const db = new Database(file, { nativeBinding: nativeBinding() as string });
  // A file created now holds nothing yet: it is set up (WAL, schema) without waiting for the disk, which took
  // ~15 of ~18 ms in fsyncs on the benchmark machine (bench/README.md). Only an operating-system crash in those
  // first milliseconds could leave it unreadable, and then it held no stack. Every later commit syncs as usual.
  if (created) db.pragma('synchronous = OFF');
  db.pragma('journal_mode = WAL');
  if (!created) db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  // One process owns the file: keep pages in memory and checkpoint the WAL less often (every ~40 MB, not ~4 MB),
  // so a big deploy is not interrupted by checkpoints; the WAL still makes every commit durable.
  db.pragma(`cache_size = -${CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('wal_autocheckpoint = 10000');
  migrate(db);
  if (created) db.pragma('synchronous = NORMAL');
  return db;
}

/**
 * A statement with a literal LIMIT, prepared once per limit. better-sqlite3's SQLite plans with the LIMIT's value, so a
 * bound `LIMIT ?` made SQLite recompile the statement on every run: ~10 µs, more than reading an empty page
 * (found by bench/, see bench/README.md). Limits are page sizes: a handful of values.
 */
export function withLimit(db: Db, sql: string): (limit: number) => Database.Statement {
  const byLimit = new Map<number, Database.Statement>();
  return (limit) => {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a row limit: ${limit}`);
    let statement = byLimit.get(limit);
    if (!statement) byLimit.set(limit, (statement = db.prepare(`${sql} LIMIT ${limit}`)));
    return statement;
  };
}

/** Applies the migrations above the stored user_version, all in one transaction: an upgrade lands whole or not at all. */
function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current >= MIGRATIONS.length) return;
  db.transaction(() => {
    for (let version = current; version < MIGRATIONS.length; version++) db.exec(MIGRATIONS[version]);
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  })();
}

/**
 * Group commit: every write unit that runs within one turn of the event loop shares one SQLite transaction,
 * committed on the next setImmediate (or by flush(), before closing). An answer that may report those writes waits
 * for that commit (afterCommit), so every request answered in the same turn shares one commit too.
 * Each unit still runs in its own SAVEPOINT, so a unit that throws is undone alone (a resource row held for the
 * commit is the one exception: storage/resources.ts save());
 * a crash loses at most the last turn's units, whole, and no client was told of them. A 500-resource deploy makes
 * some 1,500 status changes: committing each one cost more than all the rest of the deploy together, and with fifty
 * clients a commit per answer was a fifth of the server's CPU (see bench/README.md).
 */
export class GroupCommit {
  private open = false;
  private depth = 0;
  /** Answers held until the open group commits. */
  private waiting: ((err?: Error) => void)[] = [];
  /** Writes held back by a repository until its group commits (ResourceStore's rows), run just before COMMIT. */
  private readonly beforeCommitHooks: (() => void)[] = [];
  // Prepared once: compiling transaction-control SQL (or a better-sqlite3 transaction wrapper) per unit was a
  // fifth of the server's CPU under many small concurrent operations (bench/README.md).
  private readonly begin;
  private readonly commit;
  private readonly savepoint;
  private readonly release;
  private readonly rollbackTo;

  constructor(private readonly db: Db) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.savepoint = db.prepare('SAVEPOINT unit');
    this.release = db.prepare('RELEASE unit');
    this.rollbackTo = db.prepare('ROLLBACK TO unit');
  }

  /** Runs fn atomically inside the current group, opening one if none is open; nested calls join the outer unit. */
  run<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    if (!this.db.inTransaction) {
      this.begin.run();
      this.open = true;
      setImmediate(() => this.flush());
    }
    this.depth++;
    this.savepoint.run();
    try {
      const result = fn();
      this.release.run();
      return result;
    } catch (err) {
      // undo this unit alone; the group's other units stay
      this.rollbackTo.run();
      this.release.run();
      throw err;
    } finally {
      this.depth--;
    }
  }

  /** Whether a group is open: writes made now commit with it. */
  get pending(): boolean {
    return this.open;
  }

  /** Runs hook inside every group just before it commits. */
  beforeCommit(hook: () => void): void {
    this.beforeCommitHooks.push(hook);
  }

  /** Calls back once everything written so far is committed: at once if nothing is pending, else after the group. */
  afterCommit(callback: (err?: Error) => void): void {
    if (this.open) this.waiting.push(callback);
    else callback();
  }

  /** Commits the open group now (on its setImmediate, and before closing), then releases the answers it held. */
  flush(): void {
    if (!this.open) return;
    this.open = false;
    const waiting = this.waiting;
    this.waiting = [];
    try {
      if (this.db.open && this.db.inTransaction) {
        for (const hook of this.beforeCommitHooks) hook();
        this.commit.run();
      }
    } catch (err) {
      // a group that cannot commit (a full disk) is dropped whole: none of its answers has left, and the next
      // unit opens a fresh group instead of joining a transaction nobody will commit
      if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
      for (const callback of waiting) callback(err as Error);
      throw err;
    }
    for (const callback of waiting) callback();
  }
}
