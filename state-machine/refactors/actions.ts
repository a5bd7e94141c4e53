// What ListStackRefactorActions shows: a CREATE of each stack EnableStackCreation makes, then a MOVE of each resource
// moved or renamed, with the stack tags AWS puts on it anew (TagResources) and takes off (UntagResources). AWS's CLI
// example (aws-cli, examples/cloudformation/list-stack-refactor-actions.rst) shows both for a Lambda function and
// neither for an IAM role: CloudFormation's aws:cloudformation:* tags go on taggable resources outside IAM.
import type { RefactorActionRecord, StackRefactorRecord } from '../../storage/index.js';
import { resourceSpec } from '../../resources/spec.js';
import type { RefactorView } from './context.js';
import type { Match } from './match.js';

const STACK_TAGS = ['aws:cloudformation:stack-name', 'aws:cloudformation:logical-id', 'aws:cloudformation:stack-id'];
/** AWS's Description of a move: without stack tags to change, and with them. */
const UNCHANGED = 'No configuration changes detected.';
const RETAGGED = 'Resource configuration changes will be validated during refactor execution.';

export function actionsOf(view: RefactorView, r: StackRefactorRecord, moves: Match[]): RefactorActionRecord[] {
  const creates = view.stacks
    .filter((s) => s.isNew)
    .map((s): RefactorActionRecord => ({
      Action: 'CREATE',
      Entity: 'STACK',
      Description: `Stack ${s.stack.name} will be created.`,
      Detection: r.mappings.length ? 'MANUAL' : 'AUTO',
    }));
  return [...creates, ...moves.map(moveOf)];
}

function moveOf(m: Match): RefactorActionRecord {
  const tagged = carriesStackTags(m.source.type);
  return {
    Action: 'MOVE',
    Entity: 'RESOURCE',
    PhysicalResourceId: m.source.physicalId,
    Description: tagged ? RETAGGED : UNCHANGED,
    Detection: m.detection,
    TagResources: tagged
      ? [
          { Key: STACK_TAGS[0], Value: m.to.stack.name },
          { Key: STACK_TAGS[1], Value: m.logicalId },
          { Key: STACK_TAGS[2], Value: m.to.stack.stackId },
        ]
      : [],
    UntagResources: tagged ? [...STACK_TAGS] : [],
    ResourceMapping: {
      Source: { StackName: m.from.stack.stackId, LogicalResourceId: m.source.logicalId },
      Destination: { StackName: m.to.stack.stackId, LogicalResourceId: m.logicalId },
    },
  };
}

/** Whether CloudFormation tags the type with its stack: a taggable type outside IAM (IAM refuses aws: tags). */
function carriesStackTags(type: string): boolean {
  return resourceSpec(type)?.tagging !== undefined && !type.startsWith('AWS::IAM::');
}
