// Narrowing of the untyped values a template, a request body or a stored document holds.

/** A JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** A JSON array, whose items are still unknown (`Array.isArray` alone would type them `any`). */
export const isList = (v: unknown): v is unknown[] => Array.isArray(v);

/** An object's own entries with their values unknown (`Object.entries` of an `object` types them `any`). */
export const entriesOf = (v: object) => Object.entries(v) as [string, unknown][];

/** What a caught value says: an Error's message, or the value itself as text. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
