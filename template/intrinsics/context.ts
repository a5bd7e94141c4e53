// What an intrinsic function may read while it is evaluated, and the errors it raises.
import { validationError } from '../../domain/errors.js';
import type { TemplateModel } from '../model.js';

export type ParameterValue = string | string[];

/** One intrinsic function: its argument, where it is evaluated, and the evaluator for what it holds. */
export type Intrinsic = (arg: unknown, ctx: EvalContext, evaluate: Evaluate) => unknown;
export type Evaluate = (value: unknown, ctx: EvalContext) => unknown;

export interface ConditionLookup {
  has(name: string): boolean;
  get(name: string): boolean | undefined;
}

export interface EvalContext {
  model: TemplateModel;
  parameters: Map<string, ParameterValue>;
  pseudo: Record<string, unknown>;
  conditions: ConditionLookup;
  /** Ref of a resource: its value, or undefined when it is not known yet (change-set preview). */
  resourceRef(logicalId: string): unknown;
  resourceAttribute(logicalId: string, attribute: string): unknown;
  importValue: (name: string) => string;
  availabilityZones: (region: string) => string[];
  /** Fn::GetStackOutput: an output of another stack of the simulated world (any region; any account via RoleArn). */
  stackOutput?(request: StackOutputRequest): string;
  /** Fn::ValueOf: an attribute of the resource an AWS-specific parameter value names; undefined when unsupported. */
  parameterAttribute?(parameterType: string, id: string, attribute: string): string | undefined;
  /** Resolves `{{resolve:…}}` dynamic references in a string value (resource properties at execution). */
  dynamicReferences?(text: string): string;
  /** Where evaluation is: a JSON-pointer style path used in AWS's error texts. */
  path: string[];
  /**
   * Set while a template is previewed at the call: resource values are not known yet, so they evaluate to
   * UNKNOWN_VALUE and `count` grows; a function that read one yields UNKNOWN_VALUE instead of an error.
   */
  preview?: { count: number };
  /** A budget against runaway evaluation (Fn::Sub over huge lists, nested joins). */
  budget: { steps: number };
}

export interface StackOutputRequest {
  stackName: string;
  outputName: string;
  region: string;
  /** The account of RoleArn, or the stack's own. */
  account: string;
}

/** A value only known once resources exist (a Ref or GetAtt of a resource, an import) while previewing. */
export const UNKNOWN_VALUE: unique symbol = Symbol('KNOWN_AFTER_APPLY');

/** A failure raised while evaluating; `atExecution` marks those AWS reports as a failed stack, not an API error. */
export class TemplateError extends Error {
  constructor(
    message: string,
    readonly atExecution = false,
  ) {
    super(message);
  }
}

export const templateError = (message: string) => validationError(`Template error: ${message}`);
