// Pre-deployment validation ("Early Validation"): the checks AWS runs on CreateStack, UpdateStack and CreateChangeSet
// before it provisions anything (skipped with DisableValidation). The operation modules call validate() at their
// start; a FAIL problem fails the operation (or the change set) with AWS's text, and every problem becomes a
// VALIDATION_ERROR event that DescribeEvents shows.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/validate-stack-deployments.html
import { v4 as uuidv4 } from 'uuid';
import type { StackRecord, Store } from '../storage/index.js';
import { eventTime, type OperationContext } from './transitions.js';
import { eventOperationId } from './operationHistory.js';
import type { PreparedTemplate } from '../template/index.js';
import { nameProperty } from '../resources/registry.js';
import { NAME_SCOPES } from '../resources/quirks.js';

export type ValidationFailureMode = 'FAIL' | 'WARN';

/** One problem a validation found, with the members of DescribeEvents' OperationEvent that describe it. */
export interface ValidationProblem {
  logicalId: string;
  type: string;
  validationName: string;
  failureMode: ValidationFailureMode;
  reason: string;
  path: string;
}

/**
 * The validations cfn-local runs: AWS's ValidationName, the hook name its failure text lists, and its failure mode
 * (FAIL stops the operation; WARN only reports). AWS documents six; the name conflict check is the one cfn-local
 * can run exactly, since it knows every name its account holds.
 */
export const VALIDATIONS = {
  NAME_CONFLICT_VALIDATION: { hook: 'AWS::EarlyValidation::ResourceExistenceCheck', failureMode: 'FAIL' },
} as const satisfies Record<string, { hook: string; failureMode: ValidationFailureMode }>;

/** The call's or change set's failure text (quoted from the service in aws/aws-cdk-cli#1000 and #1032). */
export const earlyValidationFailed = (hooks: readonly string[]) =>
  `The following hook(s)/validation failed: [${hooks.join(', ')}]. To troubleshoot Early Validation errors, use the DescribeEvents API for detailed failure information.`;

export interface ValidationArgs {
  store: Store;
  stack: StackRecord;
  /** The logical ids the stack already has (their names are the stack's own). */
  existing?: { has(logicalId: string): boolean };
  after: PreparedTemplate;
  /** Logical ids the operation imports (an IMPORT change set, ImportExistingResources): their names are meant. */
  imported?: Iterable<string>;
}

export interface ValidationOutcome {
  problems: ValidationProblem[];
  /** The failure text when a FAIL problem was found. */
  failure?: string;
}

/** Runs every validation of VALIDATIONS over the operation's template. */
export function validate(args: ValidationArgs): ValidationOutcome {
  const problems = nameConflicts(args);
  const failing = problems.filter((p) => p.failureMode === 'FAIL');
  const hooks = [...new Set(failing.map((p) => VALIDATIONS[p.validationName as keyof typeof VALIDATIONS].hook))];
  return { problems, failure: hooks.length ? earlyValidationFailed(hooks) : undefined };
}

/**
 * NAME_CONFLICT_VALIDATION: a resource the operation adds with a custom name (a literal name property) that the
 * account already holds, where that name must be unique, and that the operation does not import.
 */
function nameConflicts({ store, stack, existing, after, imported }: ValidationArgs): ValidationProblem[] {
  const skip = new Set(imported ?? []);
  const problems: ValidationProblem[] = [];
  for (const id of after.graph.order) {
    if (existing?.has(id) || skip.has(id)) continue;
    const def = after.model.resources.get(id)!;
    const property = nameProperty(def.type);
    const name = property ? def.properties[property] : undefined;
    if (typeof name !== 'string' || !taken(store, stack, def.type, name)) continue;
    problems.push({
      logicalId: id,
      type: def.type,
      validationName: 'NAME_CONFLICT_VALIDATION',
      failureMode: VALIDATIONS.NAME_CONFLICT_VALIDATION.failureMode,
      reason: `Resource of type '${def.type}' with identifier '${name}' already exists.`,
      path: `/Resources/${id}`,
    });
  }
  return problems;
}

function taken(store: Store, stack: StackRecord, type: string, name: string): boolean {
  const { account, region } = stack;
  return Boolean(
    store.world.byName(account, region, type, name) ??
    store.world.get(account, region, type, name) ??
    (NAME_SCOPES[type] === 'account' ? store.world.byNameInAccount(account, type, name) : undefined),
  );
}

/**
 * Each problem as the VALIDATION_ERROR event DescribeEvents shows under the operation (CREATE_CHANGESET, or the
 * create or update); DescribeStackEvents leaves them out, as AWS's does. They carry no ResourceStatus.
 */
export function recordValidationEvents(
  operation: OperationContext,
  stack: StackRecord,
  problems: ValidationProblem[],
): void {
  if (!problems.length) return;
  operation.store.transaction(() => {
    for (const p of problems) {
      operation.store.events.append({
        stackId: stack.stackId,
        account: stack.account,
        region: stack.region,
        eventId: uuidv4(),
        logicalId: p.logicalId,
        physicalId: '',
        type: p.type,
        status: '',
        token: operation.token,
        timestamp: eventTime(operation, stack.stackId),
        operationId: eventOperationId(operation),
        detail: {
          EventType: 'VALIDATION_ERROR',
          ValidationFailureMode: p.failureMode,
          ValidationName: p.validationName,
          ValidationStatus: 'FAILED',
          ValidationStatusReason: p.reason,
          ValidationPath: p.path,
        },
      });
    }
  });
}
