// The inputs of the stack API calls that start operations, as handlers pass them on: the members of AWS's own input
// shapes (generated from the SDK's model) that the operations read, each optional, since nested stacks and change
// sets build them too.
import type * as Api from '../generated/cloudformation.js';

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
