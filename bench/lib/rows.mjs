// Direct SQLite access for the harness: copy a stack's rows (the floor), and clone a stack many times (seeding).
import Database from 'better-sqlite3';

/** The tables a deploy writes, and the column that ties a row to its stack. */
export const STACK_TABLES = ['stacks', 'templates', 'stack_resources', 'events', 'journal', 'operations', 'world'];
/** Autoincrement keys the copy leaves to SQLite. */
const GENERATED = { events: 'seq', journal: 'seq', templates: 'template_id' };

export function openReadWrite(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

/** Every row of one stack, table by table (what the floor writes back). */
export function stackRows(file, stackId) {
  const db = new Database(file, { readonly: true });
  try {
    const rows = {};
    for (const table of STACK_TABLES)
      rows[table] = db.prepare(`SELECT * FROM ${table} WHERE stack_id = ?`).all(stackId);
    const schema = db
      .prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((r) => r.sql);
    return { rows, schema };
  } finally {
    db.close();
  }
}

export const rowCount = (rows) => Object.values(rows).reduce((n, list) => n + list.length, 0);

function inserter(db, table, sample) {
  const columns = Object.keys(sample).filter((c) => c !== GENERATED[table]);
  const stmt = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  return (row) => stmt.run(row);
}

/**
 * The floor: the same rows written by better-sqlite3 into a fresh database file (same schema and pragmas as the
 * server) in one transaction. Resolves with the milliseconds from the first insert to the commit.
 */
export function writeFloor({ rows, schema }, file) {
  const db = openReadWrite(file);
  try {
    for (const sql of schema) db.exec(sql);
    const t0 = performance.now();
    db.transaction(() => {
      for (const [table, list] of Object.entries(rows)) {
        if (!list.length) continue;
        const insert = inserter(db, table, list[0]);
        for (const row of list) insert(row);
      }
    })();
    return performance.now() - t0;
  } finally {
    db.close();
  }
}

/**
 * Clones one stack `count` times into the same database: every text value has the source stack's id, name and
 * operation ids replaced, so each clone has its own stack, resources, events, journal and physical resources.
 * The source name must be lowercase (bucket names carry it lowercased); clones are named `${prefix}<6 digits>`.
 */
export function cloneStack(file, stackId, name, count, prefix) {
  const { rows } = stackRows(file, stackId);
  const db = openReadWrite(file);
  const ids = [stackId.split('/').pop(), ...rows.operations.map((o) => o.operation_id)];
  // Physical names without the stack's name in them (SSM parameters are CFN-<LogicalId>-<suffix>) get a clone suffix.
  const unnamed = rows.world.map((w) => w.physical_id).filter((id) => !id.includes(name));
  try {
    const inserts = Object.fromEntries(
      Object.entries(rows)
        .filter(([, l]) => l.length)
        .map(([t, l]) => [t, inserter(db, t, l[0])]),
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const cloneName = `${prefix}${String(i).padStart(6, '0')}`;
        const pairs = [
          ...ids.map((id) => [id, `${id.slice(0, 24)}${String(i).padStart(12, '0')}`]),
          ...unnamed.map((id) => [id, `${id}-${i}`]),
          [name, cloneName],
        ];
        const swap = (v) =>
          typeof v === 'string' ? pairs.reduce((text, [from, to]) => text.replaceAll(from, to), v) : v;
        let stackKey;
        for (const [table, list] of Object.entries(rows)) {
          for (const row of list) {
            const clone = Object.fromEntries(Object.entries(row).map(([k, v]) => [k, swap(v)]));
            // events are keyed by their stack row's rowid (migration 5): the clone's, not the source's
            if (table === 'events') clone.stack_key = stackKey;
            const { lastInsertRowid } = inserts[table](clone);
            if (table === 'stacks') stackKey = lastInsertRowid;
          }
        }
      }
    })();
  } finally {
    db.close();
  }
}
