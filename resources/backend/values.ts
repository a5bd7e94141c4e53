// Small conversions between CloudFormation property values and SDK inputs that several backend families share.

/** A policy or definition given as an object (YAML/JSON template) or as its JSON text. */
export function jsonText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** CloudFormation's `Tags: [{Key, Value}]` as SQS's and SNS's tag map. */
export function tagMap(tags: unknown): Record<string, string> | undefined {
  if (!Array.isArray(tags) || tags.length === 0) return undefined;
  return Object.fromEntries(tags.map((t: { Key: unknown; Value: unknown }) => [String(t.Key), String(t.Value)]));
}

/** `Tags: [{Key, Value}]` with string values (IAM, DynamoDB, Step Functions take the list itself). */
export function tagList(tags: unknown): { Key: string; Value: string }[] | undefined {
  if (!Array.isArray(tags) || tags.length === 0) return undefined;
  return tags.map((t: { Key: unknown; Value: unknown }) => ({ Key: String(t.Key), Value: String(t.Value) }));
}

/** The listed properties that are set, as the string map SQS and SNS attributes take. */
export function stringAttributes(
  properties: Record<string, unknown>,
  names: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = properties[name];
    if (value !== undefined && value !== null)
      out[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return out;
}

export const num = (v: unknown): number | undefined => (v === undefined || v === null ? undefined : Number(v));

export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
