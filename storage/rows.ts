// One mapping between a record's camelCase fields and a table's snake_case columns, used in both directions:
// optional fields are NULL in the row and absent in the record, JSON fields are stored as text, flags as 0/1.

export type ColumnKind = 'plain' | 'optional' | 'json' | 'flag';

export interface Columns<T> {
  toRow(record: T): Record<string, unknown>;
  fromRow(row: Record<string, unknown>): T;
}

/** `fields` maps each record field to its column and kind. */
export function columns<T>(fields: { [K in keyof T]-?: [column: string, kind?: ColumnKind] }): Columns<T> {
  const entries = Object.entries(fields) as [string, [string, ColumnKind?]][];
  return {
    toRow(record) {
      const row: Record<string, unknown> = {};
      for (const [field, [column, kind]] of entries) {
        const value = (record as Record<string, unknown>)[field];
        row[column] = kind === 'json' ? JSON.stringify(value) : kind === 'flag' ? (value ? 1 : 0) : (value ?? null);
      }
      return row;
    },
    fromRow(row) {
      const record: Record<string, unknown> = {};
      for (const [field, [column, kind]] of entries) {
        const value = row[column];
        if (kind === 'json') record[field] = JSON.parse(value as string);
        else if (kind === 'flag') record[field] = value === 1;
        else if (value !== null && value !== undefined) record[field] = value;
      }
      return record as T;
    },
  };
}
