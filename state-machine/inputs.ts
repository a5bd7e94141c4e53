// The inputs of the stack API calls that start operations, as handlers pass them on (AWS's member names).
import type { GivenParameter } from '../template/parameters.js';

export interface StackTemplateInput {
  StackPolicyBody?: string;
  StackPolicyDuringUpdateBody?: string;
  TemplateBody?: string;
  TemplateURL?: string;
  UsePreviousTemplate?: boolean;
  Parameters?: GivenParameter[];
  Capabilities?: string[];
  Tags?: { Key?: string; Value?: string }[];
  NotificationARNs?: string[];
  ClientRequestToken?: string;
  DisableRollback?: boolean;
  RetainExceptOnCreate?: boolean;
  RoleARN?: string;
}

export interface CreateStackInput extends StackTemplateInput {
  StackName?: string;
  /** AWS's values are ROLLBACK, DELETE and DO_NOTHING; nothing checks them, and any other value rolls back. */
  OnFailure?: string;
  TimeoutInMinutes?: number;
  EnableTerminationProtection?: boolean;
}

export interface DeleteStackInput {
  /** Internal: the parent deletes its nested stack, which the root's termination protection does not stop. */
  byParent?: boolean;
  StackName?: string;
  RetainResources?: string[];
  ClientRequestToken?: string;
}
