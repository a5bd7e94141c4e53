// ROLLBACK: RollbackStack on a stack kept in CREATE_FAILED (roll the create back: ROLLBACK_COMPLETE) or UPDATE_FAILED
// (roll the update back: UPDATE_ROLLBACK_COMPLETE), as the failed operation would have with rollback enabled.
import type { StackRecord } from '../../storage/index.js';
import { checkStart } from '../statuses.js';
import { prepareStored } from '../prepare.js';
import type { Engine } from '../engine.js';
import { rollbackCreated } from './create.js';
import { rollbackUpdate } from './updateRollback.js';
import { checkDeploymentConfig, checkFollowUp } from '../deploymentConfig.js';
import type { DeploymentConfig } from '../../generated/cloudformation.js';

export interface RollbackInput {
  RetainExceptOnCreate?: boolean;
  ClientRequestToken?: string;
  DeploymentConfig?: DeploymentConfig;
}

export function rollbackStack(engine: Engine, stack: StackRecord, input: RollbackInput): void {
  checkDeploymentConfig(input.DeploymentConfig);
  checkFollowUp('RollbackStack', stack, input.DeploymentConfig);
  checkStart('RollbackStack', stack);
  const template = prepareStored(engine.deps.store, stack, stack.templateId, stack.doc.parameters);
  const operation = engine.operationContext(input.ClientRequestToken);
  const options = { retainExceptOnCreate: input.RetainExceptOnCreate };
  if (stack.status === 'CREATE_FAILED') {
    engine.startOperation('ROLLBACK', {
      operation: operation,
      stack,
      template,
      options,
      first: 'ROLLBACK_IN_PROGRESS',
      // the resources the kept create made count as created by the operation being rolled back
      begin: (rt) => void (rt.rollbackOf = [...rt.resources.values()][0]?.doc.createdBy),
      run: async (rt) => {
        await rollbackCreated(rt);
      },
    });
    return;
  }
  engine.startOperation('ROLLBACK', {
    operation: operation,
    stack,
    template,
    options,
    first: 'UPDATE_ROLLBACK_IN_PROGRESS',
    run: rollbackUpdate,
  });
}
