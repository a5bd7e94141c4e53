// A stack's record: a new one (its first row goes through the door, insertStack in transitions.ts), its tags, and what
// a prepared template writes into it (description, parameters, NoEcho keys).
import type { StackRecord, StackParameter, Tag } from '../storage/index.js';
import type { PreparedTemplate } from '../template/index.js';
import { v1 as uuidv1 } from 'uuid';
import type { FirstStackStatus } from './statuses.js';

export { insertStack } from './transitions.js';

/** A new stack record (not yet stored) of `caller`'s account and region, with AWS's time-based stack id. */
export function newStackRecord(
  caller: { account: string; region: string },
  name: string,
  status: FirstStackStatus,
  now: Date,
): StackRecord {
  return {
    stackId: `arn:aws:cloudformation:${caller.region}:${caller.account}:stack/${name}/${uuidv1()}`,
    account: caller.account,
    region: caller.region,
    name,
    status,
    createdAt: now.toISOString(),
    templateId: 0,
    doc: {
      parameters: [],
      noEchoKeys: [],
      outputs: [],
      tags: [],
      notificationARNs: [],
      disableRollback: false,
      terminationProtection: false,
      rollbackConfiguration: {},
    },
  };
}

/** The Tags member of a call as the stack keeps them (a missing Key or Value reads as empty). */
export function tagsOf(tags: { Key?: string; Value?: string }[] | undefined): Tag[] {
  return (tags ?? []).map((t) => ({ Key: t.Key ?? '', Value: t.Value ?? '' }));
}

/** The stack's Description, Parameters (with resolved SSM values) and NoEcho keys from its new template. */
export function describeTemplate(stack: StackRecord, template: PreparedTemplate): void {
  stack.doc.description = template.model.description;
  stack.doc.parameters = template.parameters.map((p): StackParameter => ({
    ParameterKey: p.key,
    ParameterValue: p.raw,
    ...(p.resolvedValue !== undefined ? { ResolvedValue: p.resolvedValue } : {}),
  }));
  stack.doc.noEchoKeys = template.parameters.filter((p) => p.noEcho).map((p) => p.key);
}
