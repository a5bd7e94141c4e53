// The type codes of the smithy schema arrays that each @aws-sdk/client-* ships (@smithy/core's schema sentinels),
// shared by the build steps that turn those schemas into generated/ shapes (gen-shapes, gen-s3-shapes,
// gen-service-shapes). Each generator keeps its own map of simple types: the services' wire formats differ there.
export const STRUCTURE = 3;
export const UNION = 4;
export const LIST = 1;
export const MAP = 2;
export const OPERATION = 9;
export const ERROR = -3;
export const LIST_MODIFIER = 64;
export const MAP_MODIFIER = 128;
