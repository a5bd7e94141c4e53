// The inputs of the stack API calls that start operations, as handlers pass them on: the members of AWS's own input
// shapes (generated from the SDK's model) that the operations read, each optional, since nested stacks and change
// sets build them too.
import type * as Api from '../generated/cloudformation.js';
import type { RollbackConfiguration } from '../generated/cloudformation.js';

/** What CreateStack, UpdateStack and an executed change set share. */
export type StackTemplateInput = Partial<
  Pick<
    Api.UpdateStackInput,
    | 'StackPolicyBody'
    | 'StackPolicyDuringUpdateBody'
    | 'TemplateBody'
    | 'TemplateURL'
    | 'UsePreviousTemplate'
    | 'Parameters'
    | 'Capabilities'
    | 'Tags'
    | 'NotificationARNs'
    | 'ClientRequestToken'
    | 'DisableRollback'
    | 'RetainExceptOnCreate'
    | 'RoleARN'
    | 'DeploymentConfig'
    | 'DisableValidation'
  >
>;

/** OnFailure is AWS's ROLLBACK, DELETE or DO_NOTHING; nothing checks it, and any other value rolls back. */
export type CreateStackInput = StackTemplateInput &
  Partial<Pick<Api.CreateStackInput, 'StackName' | 'OnFailure' | 'TimeoutInMinutes' | 'EnableTerminationProtection'>>;

export type DeleteStackInput = Partial<
  Pick<Api.DeleteStackInput, 'StackName' | 'RetainResources' | 'ClientRequestToken' | 'DeploymentConfig'>
>;

/** ResourcesToImport's items, as an IMPORT change set reads them. */
export interface ResourceToImport {
  ResourceType?: string;
  LogicalResourceId?: string;
  ResourceIdentifier?: Record<string, string>;
}

export interface CreateChangeSetInput extends StackTemplateInput {
  StackName: string;
  ChangeSetName: string;
  ChangeSetType?: 'CREATE' | 'UPDATE' | 'IMPORT';
  Description?: string;
  ResourcesToImport?: ResourceToImport[];
  /** ROLLBACK, DELETE or DO_NOTHING as AWS names them; not checked (see OnFailure above). */
  OnStackFailure?: string;
  IncludeNestedStacks?: boolean;
  ImportExistingResources?: boolean;
  RollbackConfiguration?: RollbackConfiguration;
}
