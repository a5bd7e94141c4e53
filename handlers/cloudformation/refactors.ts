// CreateStackRefactor, DescribeStackRefactor, ExecuteStackRefactor, ListStackRefactors, ListStackRefactorActions.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_CreateStackRefactor.html
import { awsError, echo, stackNotFound, validationError } from '../../domain/errors.js';
import type { StackRefactorRecord } from '../../storage/index.js';
import type { StackRefactorAction, StackRefactorSummary } from '../../generated/cloudformation.js';
import { createRefactor } from '../../state-machine/refactors/create.js';
import { executeRefactor } from '../../state-machine/refactors/execute.js';
import { shownExecutionStatus } from '../../state-machine/refactorStatus.js';
import { templateBody } from './stacks.js';
import { decodeToken, encodeToken, findStack, type Handler, type HandlerContext } from './context.js';

/** AWS's user guide: resources move between at most 5 stacks in one refactor. */
const MAX_STACKS = 5;
const PAGE_SIZE = 100;

export const createStackRefactor: Handler<'CreateStackRefactor'> = async (ctx, input) => {
  const definitions = input.StackDefinitions;
  if (!definitions.length) throw validationError('StackDefinitions must contain at least one stack.');
  if (definitions.length > MAX_STACKS) {
    throw validationError(`StackDefinitions cannot contain more than ${MAX_STACKS} stacks.`);
  }
  const stacks: { name: string; body: string; stackId?: string }[] = [];
  for (const d of definitions) {
    if (!d.StackName) throw validationError('StackName must be specified in each of the StackDefinitions.');
    // A stack is named by its name or its stack id (ARN), as AWS's own tools name nested stacks; only a name can
    // make a new stack.
    const found = findStack(ctx, d.StackName);
    const exists = found && found.status !== 'DELETE_COMPLETE' ? found : undefined;
    if (!exists && (!input.EnableStackCreation || d.StackName.startsWith('arn:'))) throw stackNotFound(d.StackName);
    const name = exists?.name ?? d.StackName;
    if (stacks.some((s) => s.name === name || (exists && s.stackId === exists.stackId))) {
      throw validationError(`Stack [${echo(d.StackName)}] is specified more than once in StackDefinitions.`);
    }
    stacks.push({ name, body: await templateBody(ctx, d), stackId: exists?.stackId });
  }
  const named = (name: string) =>
    stacks.some((s) => s.name === name || (s.stackId !== undefined && s.stackId === name));
  const mappings = (input.ResourceMappings ?? []).map((m) => ({
    Source: { StackName: m.Source.StackName, LogicalResourceId: m.Source.LogicalResourceId },
    Destination: { StackName: m.Destination.StackName, LogicalResourceId: m.Destination.LogicalResourceId },
  }));
  for (const m of mappings) {
    for (const name of [m.Source.StackName, m.Destination.StackName]) {
      if (!named(name)) throw validationError(`Stack [${echo(name)}] in ResourceMappings is not in StackDefinitions.`);
    }
  }
  const id = createRefactor(ctx.engine, ctx.caller, {
    description: input.Description,
    enableStackCreation: input.EnableStackCreation ?? false,
    mappings,
    stacks: stacks.map(({ name, body }) => ({ name, body })),
  });
  return { StackRefactorId: id };
};

export const describeStackRefactor: Handler<'DescribeStackRefactor'> = (ctx, input) => {
  const r = refactorOf(ctx, input.StackRefactorId);
  return { ...summaryOf(ctx, r), StackIds: r.stacks.map((s) => s.stackId) };
};

export const executeStackRefactor: Handler<'ExecuteStackRefactor'> = (ctx, input) => {
  executeRefactor(ctx.engine, refactorOf(ctx, input.StackRefactorId));
  return undefined;
};

export const listStackRefactors: Handler<'ListStackRefactors'> = (ctx, input) => {
  const filter = input.ExecutionStatusFilter?.length ? new Set(input.ExecutionStatusFilter) : undefined;
  const all = ctx.store.refactors
    .list(ctx.caller.account, ctx.caller.region)
    .map((r) => summaryOf(ctx, r))
    .filter((s) => !filter || filter.has(s.ExecutionStatus!));
  const { page, next } = pageOf(all, input.NextToken, input.MaxResults);
  return { StackRefactorSummaries: page, NextToken: next };
};

export const listStackRefactorActions: Handler<'ListStackRefactorActions'> = (ctx, input) => {
  const r = refactorOf(ctx, input.StackRefactorId);
  const { page, next } = pageOf<StackRefactorAction>(r.actions, input.NextToken, input.MaxResults);
  return { StackRefactorActions: page, NextToken: next };
};

function refactorOf(ctx: HandlerContext, id: string): StackRefactorRecord {
  const r = ctx.store.refactors.byId(id);
  if (!r || r.account !== ctx.caller.account || r.region !== ctx.caller.region) {
    throw awsError('StackRefactorNotFoundException', `Stack refactor with id ${echo(id)} does not exist`);
  }
  return r;
}

function summaryOf(ctx: HandlerContext, r: StackRefactorRecord): StackRefactorSummary {
  return {
    StackRefactorId: r.id,
    Description: r.description,
    Status: r.status,
    StatusReason: r.statusReason,
    ExecutionStatus: shownExecutionStatus(ctx.store, r),
    ExecutionStatusReason: r.executionStatusReason,
  };
}

function pageOf<T>(all: T[], token: string | undefined, max: number | undefined): { page: T[]; next?: string } {
  const start = decodeToken(token) ?? 0;
  const size = max ?? PAGE_SIZE;
  return {
    page: all.slice(start, start + size),
    next: start + size < all.length ? encodeToken(start + size) : undefined,
  };
}
