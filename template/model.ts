// The template model every later pass (parameters, conditions, graph, evaluation, planning) reads.

export interface ParameterDef {
  Type: string;
  Default?: unknown;
  NoEcho?: boolean | string;
  AllowedValues?: unknown[];
  AllowedPattern?: string;
  MinLength?: number | string;
  MaxLength?: number | string;
  MinValue?: number | string;
  MaxValue?: number | string;
  Description?: string;
  ConstraintDescription?: string;
}

export interface ResourceDef {
  logicalId: string;
  type: string;
  properties: Record<string, unknown>;
  dependsOn: string[];
  condition?: string;
  deletionPolicy?: unknown;
  updateReplacePolicy?: unknown;
  metadata?: unknown;
  creationPolicy?: unknown;
  updatePolicy?: unknown;
  /** Position in the template, for deterministic ordering among ready resources. */
  ord: number;
}

export interface OutputDef {
  logicalId: string;
  value: unknown;
  description?: unknown;
  exportName?: unknown;
  condition?: string;
}

export interface TemplateModel {
  doc: Record<string, unknown>;
  description?: string;
  parameters: Record<string, ParameterDef>;
  mappings: Record<string, Record<string, Record<string, unknown>>>;
  conditions: Record<string, unknown>;
  rules: Record<string, unknown>;
  resources: Map<string, ResourceDef>;
  outputs: OutputDef[];
  transforms: string[];
  metadata?: unknown;
}

/** The value of AWS::NoValue: a property or list element that evaluates to it is removed. */
export const NO_VALUE: unique symbol = Symbol('AWS::NoValue');
