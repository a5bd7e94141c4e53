// The type codes of the smithy schema arrays that each @aws-sdk/client-* ships (@smithy/core's schema sentinels),
// read by scripts/gen-models.mjs, which turns those schemas into generated/models/, and the simple types.
export const STRUCTURE = 3;
export const UNION = 4;
export const LIST = 1;
export const MAP = 2;
export const OPERATION = 9;
export const ERROR = -3;
export const LIST_MODIFIER = 64;
export const MAP_MODIFIER = 128;

/** Simple schema type codes every generator reads the same way. */
export const SIMPLE_TYPES = {
  0: 'string',
  1: 'number',
  2: 'boolean',
  4: 'timestamp',
  5: 'timestamp',
  6: 'timestamp',
  7: 'timestamp',
  15: 'document',
  21: 'blob',
};
