// One mapping between a record's camelCase fields and a table's snake_case columns, used in both directions:
// optional fields are NULL in the row and absent in the record, JSON fields are stored as text, flags as 0/1.

export type ColumnKind = 'plain' | 'optional' | 'json' | 'flag';

export interface Columns<T> {
  /** The columns, in the order `values` gives them. */
  readonly names: readonly string[];
  /** `?, ?, …`, one per column, for statements bound with `values`. */
  readonly placeholders: string;
  /** The record's column values in `names` order: positional parameters bind faster than named ones (~1 µs a row). */
  values(record: T): unknown[];
  toRow(record: T): Record<string, unknown>;
  /**
   * The record of a row, with `extra`'s fields (ones kept outside these columns) assigned onto it: assigned, not
   * spread, since `{ ...mapped, ...extra }` cost ~5 µs a row in V8 (bench/README.md, finding 16).
   */
  fromRow<X extends object = object>(row: Record<string, unknown>, extra?: X): T & X;
}

/** `fields` maps each record field to its column and kind. */
export function columns<T>(fields: { [K in keyof T]-?: [column: string, kind?: ColumnKind] }): Columns<T> {
  const entries = Object.entries<[string, ColumnKind?]>(fields);
  const stored = (value: unknown, kind: ColumnKind | undefined) =>
    kind === 'json' ? JSON.stringify(value) : kind === 'flag' ? (value ? 1 : 0) : (value ?? null);
  return {
    names: entries.map(([, [column]]) => column),
    placeholders: entries.map(() => '?').join(', '),
    values(record) {
      return entries.map(([field, [, kind]]) => stored((record as Record<string, unknown>)[field], kind));
    },
    toRow(record) {
      const row: Record<string, unknown> = {};
      for (const [field, [column, kind]] of entries)
        row[column] = stored((record as Record<string, unknown>)[field], kind);
      return row;
    },
    fromRow<X extends object>(row: Record<string, unknown>, extra?: X) {
      const record: Record<string, unknown> = {};
      for (const [field, [column, kind]] of entries) {
        const value = row[column];
        if (kind === 'json') record[field] = JSON.parse(value as string);
        else if (kind === 'flag') record[field] = value === 1;
        else if (value !== null && value !== undefined) record[field] = value;
      }
      if (extra) for (const key of Object.keys(extra)) record[key] = (extra as Record<string, unknown>)[key];
      return record as T & X;
    },
  };
}
