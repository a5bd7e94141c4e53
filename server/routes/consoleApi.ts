// The console's JSON reads (docs/control-api.md#the-console-api): every account's stacks, one stack whole, its events,
// its dependency graph, its change sets and its drift, read through the CloudFormation handlers as the stack's own
// account; and the one write a stack's page starts, a drift detection (DetectStackDrift).
import type { FastifyInstance, FastifyReply } from 'fastify';
import { describeStack } from '../../handlers/cloudformation/stackViews.js';
import { shownInStackEvents, stackEventView } from '../../handlers/cloudformation/events.js';
import { describeStackResources } from '../../handlers/cloudformation/resources.js';
import { getTemplate } from '../../handlers/cloudformation/templates.js';
import { describeChangeSet, listChangeSets } from '../../handlers/cloudformation/changeSets.js';
import { detectStackDrift } from '../../handlers/cloudformation/drift.js';
import { isAwsError } from '../../domain/errors.js';
import type { HandlerContext } from '../../handlers/cloudformation/context.js';
import type { EventRecord, StackRecord } from '../../storage/index.js';
import { changeSetImpact } from './changeSetImpact.js';
import { dependencyGraph } from '../console/graph.js';
import { PREFIX, sendError, type ControlDeps } from './controlHttp.js';

/** The list holds this many stacks at most, newest first (the console stays smooth well past a thousand). */
export const MAX_STACKS = 10_000;
/** A bucket's first objects the console lists (by key). */
export const MAX_OBJECTS = 1_000;
/** A stack's newest events the console reads at once. */
export const MAX_EVENTS = 10_000;

/** A stack as the console's list shows it: DescribeStacks' members plus where it lives. */
export function stackRow(stack: StackRecord) {
  return {
    StackId: stack.stackId,
    StackName: stack.name,
    Account: stack.account,
    Region: stack.region,
    StackStatus: stack.status,
    StackStatusReason: stack.statusReason,
    CreationTime: stack.createdAt,
    LastUpdatedTime: stack.updatedAt,
    DeletionTime: stack.deletedAt,
    ParentId: stack.doc.parentId,
    RootId: stack.doc.rootId,
    Description: stack.doc.description,
  };
}

/**
 * An event as the console reads it: DescribeStackEvents' members less the two it never shows, the resource's
 * properties and the request token (most of the bytes of a stack's 10,000 events), plus its `Seq`.
 */
export function consoleEvent(event: EventRecord, stackName: string) {
  const { ResourceProperties: _properties, ClientRequestToken: _token, ...shown } = stackEventView(event, stackName);
  return { ...shown, Seq: event.seq };
}

type IdQuery = { Querystring: { id?: string } };

/** The stack a `?id=<stack ARN>` names and the handler context of its account, or the 400/404 sent. */
function located(deps: ControlDeps, id: string | undefined, reply: FastifyReply) {
  if (!id) return void sendError(reply, 400, 'id is required: a stack ARN');
  const stack = deps.store.stacks.byId(id);
  if (!stack) return void sendError(reply, 404, `no stack with id ${id.slice(0, 256)}`);
  const ctx: HandlerContext = { ...deps, caller: { account: stack.account, region: stack.region }, requestId: '' };
  return { stack, ctx };
}

/** The stack's newest drift detection, whatever its status, and each current resource's latest result. */
function driftOf(stack: StackRecord, ctx: HandlerContext) {
  const { drifts, resources } = ctx.store;
  const d = drifts.latestDetection(stack.stackId);
  const current = new Set(resources.byStack(stack.stackId).map((r) => r.logicalId));
  return {
    Detection: d && {
      StackDriftDetectionId: d.detectionId,
      DetectionStatus: d.status,
      DetectionStatusReason: d.reason,
      StackDriftStatus: d.stackDriftStatus,
      DriftedStackResourceCount: d.driftedCount,
      Timestamp: d.startedAt,
    },
    Resources: drifts.resources(stack.stackId).filter((r) => current.has(r.LogicalResourceId)),
  };
}

function stackDetail(stack: StackRecord, ctx: HandlerContext) {
  const template = (stage: 'Original' | 'Processed') =>
    getTemplate(ctx, { StackName: stack.stackId, TemplateStage: stage }) as { TemplateBody?: string };
  return {
    Stack: describeStack(stack, ctx.store.drifts.latestComplete(stack.stackId)),
    Drift: driftOf(stack, ctx),
    Account: stack.account,
    Region: stack.region,
    Resources: (describeStackResources(ctx, { StackName: stack.stackId }) as { StackResources?: unknown[] })
      .StackResources,
    TemplateOriginal: template('Original').TemplateBody,
    TemplateProcessed: template('Processed').TemplateBody,
    StackPolicyBody: stack.doc.stackPolicyBody,
    ChangeSets: (listChangeSets(ctx, { StackName: stack.stackId }) as { Summaries?: unknown[] }).Summaries,
  };
}

export function registerConsoleApi(app: FastifyInstance, deps: ControlDeps): void {
  app.get(`${PREFIX}/stacks`, async () => ({ stacks: deps.store.stacks.all(MAX_STACKS).map(stackRow) }));

  app.get<IdQuery>(`${PREFIX}/stack`, async (req, reply) => {
    const found = located(deps, req.query.id, reply);
    return found ? stackDetail(found.stack, found.ctx) : reply;
  });

  // DetectStackDrift as the stack's account: its refusals (a status drift cannot be checked in, one running) are 400s
  app.post<IdQuery>(`${PREFIX}/stack/drift`, async (req, reply) => {
    const found = located(deps, req.query.id, reply);
    if (!found) return reply;
    try {
      return await detectStackDrift(found.ctx, { StackName: found.stack.stackId });
    } catch (err) {
      if (isAwsError(err)) return sendError(reply, 400, err.message);
      throw err;
    }
  });

  app.get<{ Querystring: { id?: string; limit?: string } }>(`${PREFIX}/stack/events`, async (req, reply) => {
    const limit = req.query.limit === undefined ? MAX_EVENTS : Number(req.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_EVENTS)
      return sendError(reply, 400, `limit must be a whole number from 1 to ${MAX_EVENTS}`);
    const found = located(deps, req.query.id, reply);
    if (!found) return reply;
    const { stack } = found;
    const events = deps.store.events.page(stack.stackId, undefined, limit);
    return {
      events: events.filter(shownInStackEvents).map((e) => consoleEvent(e, stack.name)),
    };
  });

  app.get<IdQuery>(`${PREFIX}/stack/graph`, async (req, reply) => {
    const found = located(deps, req.query.id, reply);
    if (!found) return reply;
    const body = (
      getTemplate(found.ctx, { StackName: found.stack.stackId, TemplateStage: 'Processed' }) as {
        TemplateBody?: string;
      }
    ).TemplateBody;
    return dependencyGraph(body ?? '', deps.store.resources.byStack(found.stack.stackId));
  });

  app.get<{ Querystring: { account?: string; bucket?: string } }>(`${PREFIX}/bucket-objects`, async (req, reply) => {
    const { account, bucket } = req.query;
    if (!account || !bucket) return sendError(reply, 400, 'account and bucket are required');
    const objects = deps.store.objects.list(account, bucket, '', '', MAX_OBJECTS + 1);
    return {
      objects: objects.slice(0, MAX_OBJECTS).map((o) => ({ Key: o.key, Size: o.size, LastModified: o.lastModified })),
      truncated: objects.length > MAX_OBJECTS,
    };
  });

  app.get<IdQuery>(`${PREFIX}/change-set`, async (req, reply) => {
    const cs = req.query.id ? deps.store.changeSets.byId(req.query.id) : undefined;
    if (!req.query.id) return sendError(reply, 400, 'id is required: a change set ARN');
    if (!cs || cs.deleted) return sendError(reply, 404, `no change set with id ${req.query.id.slice(0, 256)}`);
    const ctx: HandlerContext = { ...deps, caller: { account: cs.account, region: cs.region }, requestId: '' };
    const described = await describeChangeSet(ctx, { ChangeSetName: cs.changeSetId, IncludePropertyValues: true });
    return { ...described, Impact: changeSetImpact(deps.store, cs) };
  });
}
