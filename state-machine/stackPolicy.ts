// Stack policies: validation as SetStackPolicy does it, and the decision whether an update action on a resource
// is allowed. With a policy set, everything not explicitly allowed is denied; an explicit Deny always wins.
import { validationError } from '../domain/errors.js';

export type UpdateAction = 'Modify' | 'Replace' | 'Delete';

interface Statement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Principal: string;
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Partial<Record<string, Partial<Record<string, string | string[]>>>>;
}

const INVALID = () => validationError('Error validating stack policy: Invalid stack policy');
const ACTION = /^Update:(\*|Modify|Replace|Delete)$/;

const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Parses and checks a policy body; throws AWS's ValidationError when it is not a valid stack policy. */
export function parseStackPolicy(body: string): Statement[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw INVALID();
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw INVALID();
  const statements = (doc as { Statement?: unknown }).Statement;
  if (statements === undefined) return [];
  // the document is a user's JSON: each statement is checked before it is trusted as a Statement
  for (const s of list(statements as never) as unknown as (Record<string, unknown> | null)[]) {
    if (!s || (s.Effect !== 'Allow' && s.Effect !== 'Deny') || s.Principal !== '*') throw INVALID();
    const actions = [...list(s.Action as Statement['Action']), ...list(s.NotAction as Statement['NotAction'])];
    if (!actions.length || !actions.every((a) => ACTION.test(a))) throw INVALID();
  }
  return list(statements as never) as unknown as Statement[];
}

function matches(pattern: string, value: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

function applies(s: Statement, logicalId: string, type: string, action: UpdateAction): boolean {
  const name = `Update:${action}`;
  const actionOk =
    s.Action !== undefined
      ? list(s.Action).some((a) => matches(a, name))
      : !list(s.NotAction).some((a) => matches(a, name));
  const target = `LogicalResourceId/${logicalId}`;
  const resourceOk =
    s.Resource !== undefined
      ? list(s.Resource).some((r) => matches(r, target))
      : s.NotResource !== undefined
        ? !list(s.NotResource).some((r) => matches(r, target))
        : true;
  const typeCondition = s.Condition?.StringEquals?.ResourceType ?? s.Condition?.StringLike?.ResourceType;
  const conditionOk = typeCondition === undefined || list(typeCondition).some((t) => matches(t, type));
  return actionOk && resourceOk && conditionOk;
}

/** The ResourceStatusReason when the policy refuses this action, or undefined when it allows it. */
export function policyRefusal(
  body: string | undefined,
  logicalId: string,
  type: string,
  action: UpdateAction,
): string | undefined {
  if (body === undefined) return undefined;
  const statements = parseStackPolicy(body);
  const relevant = statements.filter((s) => applies(s, logicalId, type, action));
  if (relevant.some((s) => s.Effect === 'Deny')) return 'Action denied by stack policy';
  if (!relevant.some((s) => s.Effect === 'Allow')) return 'Action not allowed by stack policy';
  return undefined;
}
