// DeploymentConfig (Express mode): what an operation's mode changes, as AWS's tables. The operation modules read
// it at their start (rollback, the follow-up rules, the stack's recorded mode) and the resource door reads the
// running operation's mode for its events' status reason (transitions.ts).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-express-mode.html
import type { DeploymentConfig } from '../generated/cloudformation.js';
import { validationError } from '../domain/errors.js';
import { validationText } from '../domain/serviceErrors.js';
import type { StackStatus } from '../domain/statuses.js';

export const DEPLOYMENT_MODES = ['STANDARD', 'EXPRESS'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

/** The status reason AWS gives a resource's CREATE_COMPLETE, UPDATE_COMPLETE and DELETE_COMPLETE in Express mode. */
export const EXPRESS_STATUS_REASON =
  'Resource operation completed using Express Mode. It may continue becoming available in the background.';

/** The stack operations that take DeploymentConfig, by AWS's Action name. */
export type ConfiguredOperation = 'CreateStack' | 'UpdateStack' | 'DeleteStack' | 'RollbackStack' | 'CreateChangeSet';

// AWS's refusals on a stack whose last operation ran in EXPRESS mode with rollback disabled and failed
// (quoted from the service in aws/aws-cdk-cli#1739; "a UPDATE_FAILED" is AWS's own grammar).
export const EXPRESS_REFUSALS = {
  followUp: (status: string) =>
    `This stack is in a ${status} state from a previous operation that used EXPRESS deployment mode with disable-rollback. Follow-up operations must use the same DeploymentConfig (mode=EXPRESS) until the stack reaches a *_COMPLETE state`,
  rollbackStack: () =>
    'RollbackStack is not supported for stacks that were last updated using EXPRESS deployment mode and are in a failed state',
};

/** The failed statuses an EXPRESS operation with rollback disabled leaves a stack in. */
const EXPRESS_FAILED: readonly StackStatus[] = ['CREATE_FAILED', 'UPDATE_FAILED'];

/**
 * What each operation may do on a stack kept failed by an EXPRESS operation: `sameMode` operations must be EXPRESS
 * again, `refused` ones are not supported at all. DeleteStack is neither: a failed stack can always be deleted.
 */
export const EXPRESS_FOLLOW_UPS: Record<ConfiguredOperation, 'sameMode' | 'refused' | 'free'> = {
  CreateStack: 'free',
  UpdateStack: 'sameMode',
  CreateChangeSet: 'sameMode',
  RollbackStack: 'refused',
  DeleteStack: 'free',
};

export const modeOf = (config: DeploymentConfig | undefined): DeploymentMode =>
  config?.Mode === 'EXPRESS' ? 'EXPRESS' : 'STANDARD';

/** Refuses a Mode outside AWS's enum, in AWS's "validation error detected" words. */
export function checkDeploymentConfig(config: DeploymentConfig | undefined): void {
  const mode = config?.Mode;
  if (mode === undefined || (DEPLOYMENT_MODES as readonly string[]).includes(mode)) return;
  throw validationError(
    validationText([
      `Value '${mode}' at 'deploymentConfig.mode' failed to satisfy constraint: Member must satisfy enum value set: [${DEPLOYMENT_MODES.join(', ')}]`,
    ]),
  );
}

/**
 * Whether the operation's rollback is disabled. In EXPRESS mode rollback is off unless DeploymentConfig says
 * `DisableRollback: false`; otherwise DeploymentConfig.DisableRollback, when given, wins over the call's own.
 */
export function rollbackDisabled(config: DeploymentConfig | undefined, disableRollback?: boolean): boolean | undefined {
  if (config?.DisableRollback !== undefined) return config.DisableRollback;
  if (modeOf(config) === 'EXPRESS') return true;
  return disableRollback;
}

/**
 * What the stack keeps of its last operation's DeploymentConfig (DescribeStacks shows it): an operation that sends
 * none runs STANDARD, which a stack that showed a mode then shows.
 */
export function recordedConfig(
  config: DeploymentConfig | undefined,
  previous?: DeploymentConfig,
): DeploymentConfig | undefined {
  if (!config) return previous ? { Mode: 'STANDARD' } : undefined;
  return {
    Mode: modeOf(config),
    ...(config.DisableRollback !== undefined ? { DisableRollback: config.DisableRollback } : {}),
  };
}

/** AWS's follow-up rules on a stack an EXPRESS operation left failed (EXPRESS_FOLLOW_UPS). */
export function checkFollowUp(
  operation: ConfiguredOperation,
  stack: { status: StackStatus; doc: { deploymentConfig?: DeploymentConfig } },
  config: DeploymentConfig | undefined,
): void {
  if (!EXPRESS_FAILED.includes(stack.status) || modeOf(stack.doc.deploymentConfig) !== 'EXPRESS') return;
  const rule = EXPRESS_FOLLOW_UPS[operation];
  if (rule === 'refused') throw validationError(EXPRESS_REFUSALS.rollbackStack());
  if (rule === 'sameMode' && modeOf(config) !== 'EXPRESS')
    throw validationError(EXPRESS_REFUSALS.followUp(stack.status));
}
