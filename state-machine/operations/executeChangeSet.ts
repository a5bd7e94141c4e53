// ExecuteChangeSet: starts the create, update or import a change set describes, through those operations' own
// modules, and follows it to EXECUTE_COMPLETE or EXECUTE_FAILED (nested change sets with it).
import type { ChangeSetRecord } from '../../storage/index.js';
import { checkExecutable, checkStart } from '../statuses.js';
import { deleteOthers, setChangeSetStatus } from '../changeSetStatus.js';
import { docOf } from '../changeSets.js';
import { endOfExecution, startNested } from '../nestedChangeSets.js';
import type { Engine } from '../engine.js';
import type { CreateStackInput } from '../inputs.js';
import { executeCreate } from './create.js';
import { updateStack } from './update.js';
import { startImport } from './import.js';
import { recordedTemplate } from '../expansions.js';

export interface ExecuteOptions {
  DisableRollback?: boolean;
  RetainExceptOnCreate?: boolean;
  ClientRequestToken?: string;
}

export function executeChangeSet(engine: Engine, cs: ChangeSetRecord, options: ExecuteOptions): void {
  const { store } = engine.deps;
  checkExecutable(cs);
  const stack = store.stacks.byId(cs.stackId)!;
  checkStart('ExecuteChangeSet', stack);
  const doc = docOf(cs);
  const input: CreateStackInput = {
    // a stack shows Capabilities only when some were requested.
    StackName: stack.name,
    Parameters: doc.parameters,
    Capabilities: doc.capabilities.length ? doc.capabilities : undefined,
    Tags: doc.tags,
    NotificationARNs: doc.notificationARNs,
    RoleARN: doc.roleARN,
    ClientRequestToken: options.ClientRequestToken,
    DisableRollback: options.DisableRollback,
    RetainExceptOnCreate: options.RetainExceptOnCreate,
    OnFailure: doc.onStackFailure,
    DeploymentConfig: doc.deploymentConfig,
  };
  const executing = setChangeSetStatus(store, cs, { executionStatus: 'EXECUTE_IN_PROGRESS' });
  startNested(engine, cs);
  const onEnd = endOfExecution(engine, cs.changeSetId);
  const extras = { changeSetId: cs.changeSetId, adopt: doc.adoptions, onEnd };
  try {
    if (doc.type === 'IMPORT') startImport(engine, stack, input, doc.templateBody, extras);
    else if (stack.status === 'REVIEW_IN_PROGRESS') executeCreate(engine, stack, input, doc.templateBody, extras);
    else {
      updateStack(engine, stack, input, recordedTemplate(store, doc.templateBody), {
        reviewed: true,
        adopt: doc.adoptions,
        onEnd,
      });
      stack.doc.changeSetId = cs.changeSetId;
      stack.doc.viaChangeSet = true;
      store.stacks.saveDoc(stack);
    }
  } catch (err) {
    setChangeSetStatus(store, executing, { executionStatus: 'AVAILABLE' });
    throw err;
  }
  // DescribeEvents by ChangeSetName finds the execution (and the rollback that may follow it) too
  const execution = engine.running.get(stack.stackId)?.operationId;
  if (execution) store.history.linkChangeSet(execution, cs.changeSetId);
  if (doc.rollbackConfiguration) {
    stack.doc.rollbackConfiguration = doc.rollbackConfiguration;
    store.stacks.saveDoc(stack);
  }
  deleteOthers(store, cs);
}
