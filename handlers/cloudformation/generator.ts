// The IaC generator: resource scans (StartResourceScan, DescribeResourceScan, ListResourceScans,
// ListResourceScanResources, ListResourceScanRelatedResources) and generated templates (Create, Update, Describe,
// Get, List, Delete).
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_StartResourceScan.html
import { AwsError, echo } from '../../domain/errors.js';
import type { GeneratedTemplateRecord, ResourceScanRecord, ScannedResourceRecord } from '../../storage/index.js';
import {
  createGeneratedTemplate as create,
  deleteGeneratedTemplate as remove,
  startResourceScan as start,
  updateGeneratedTemplate as update,
} from '../../state-machine/generator.js';
import { parseTemplate } from '../../template/parse.js';
import { renderTemplate, templateOf } from '../../resources/generator/template.js';
import { decodeToken, encodeToken, type Handler, type HandlerContext } from './context.js';

const PAGE = 100;

function page<T>(all: T[], token: string | undefined, max: number | undefined) {
  const from = decodeToken(token) ?? 0;
  const size = max ?? PAGE;
  return {
    items: all.slice(from, from + size),
    NextToken: from + size < all.length ? encodeToken(from + size) : undefined,
  };
}

function scanOf(ctx: HandlerContext, id: string): ResourceScanRecord {
  const scan = ctx.store.generator.scan(id);
  if (!scan || scan.account !== ctx.caller.account || scan.region !== ctx.caller.region) {
    throw new AwsError('ResourceScanNotFound', `Resource scan ${echo(id)} not found.`);
  }
  return scan;
}

function templateNamed(ctx: HandlerContext, nameOrId: string): GeneratedTemplateRecord {
  const { account, region } = ctx.caller;
  const t = nameOrId.startsWith('arn:')
    ? ctx.store.generator.template(nameOrId)
    : ctx.store.generator.templateByName(account, region, nameOrId);
  if (!t || t.account !== account || t.region !== region) {
    throw new AwsError('GeneratedTemplateNotFound', `Generated Template ${echo(nameOrId)} not found.`);
  }
  return t;
}

const wireResource = (r: ScannedResourceRecord) => ({
  ResourceType: r.ResourceType,
  ResourceIdentifier: r.ResourceIdentifier,
  ManagedByStack: r.ManagedByStack,
});

export const startResourceScan: Handler<'StartResourceScan'> = (ctx, input) => ({
  ResourceScanId: start(ctx.engine.deps, ctx.caller, input.ScanFilters),
});

export const describeResourceScan: Handler<'DescribeResourceScan'> = (ctx, input) => {
  const scan = scanOf(ctx, input.ResourceScanId);
  const done = scan.status === 'COMPLETE';
  return {
    ResourceScanId: scan.id,
    Status: scan.status,
    StartTime: new Date(scan.startedAt),
    EndTime: scan.endedAt ? new Date(scan.endedAt) : undefined,
    PercentageCompleted: done ? 100 : 0,
    ResourceTypes: [...new Set(scan.resources.map((r) => r.ResourceType))].sort(),
    ResourcesScanned: done ? scan.resources.length : undefined,
    ResourcesRead: done ? scan.resources.length : undefined,
    ScanFilters: scan.scanFilters,
  };
};

export const listResourceScans: Handler<'ListResourceScans'> = (ctx, input) => {
  const all = ctx.store.generator
    .scans(ctx.caller.account, ctx.caller.region)
    .map((s) => ({ ...s, ScanType: s.scanFilters ? 'PARTIAL' : 'FULL' }))
    .filter((s) => !input.ScanTypeFilter || s.ScanType === input.ScanTypeFilter);
  const { items, NextToken } = page(all, input.NextToken, input.MaxResults);
  return {
    ResourceScanSummaries: items.map((s) => ({
      ResourceScanId: s.id,
      Status: s.status,
      StartTime: new Date(s.startedAt),
      EndTime: s.endedAt ? new Date(s.endedAt) : undefined,
      PercentageCompleted: s.status === 'COMPLETE' ? 100 : 0,
      ScanType: s.ScanType,
    })),
    NextToken,
  };
};

/** A scan still running has nothing to list yet (AWS refuses it). */
function completeScan(ctx: HandlerContext, id: string): ResourceScanRecord {
  const scan = scanOf(ctx, id);
  if (scan.status === 'IN_PROGRESS') {
    throw new AwsError('ResourceScanInProgress', `Resource scan ${echo(id)} is still in progress.`);
  }
  return scan;
}

export const listResourceScanResources: Handler<'ListResourceScanResources'> = (ctx, input) => {
  const scan = completeScan(ctx, input.ResourceScanId);
  const all = scan.resources.filter(
    (r) =>
      (!input.ResourceTypePrefix || r.ResourceType.startsWith(input.ResourceTypePrefix.replace(/\*$/, ''))) &&
      (!input.ResourceIdentifier ||
        Object.values(r.ResourceIdentifier).some((v) => v.includes(input.ResourceIdentifier!))) &&
      (!input.TagKey ||
        r.tags.some((t) => t.Key === input.TagKey && (!input.TagValue || t.Value === input.TagValue))) &&
      (!input.TagValue || input.TagKey || r.tags.some((t) => t.Value === input.TagValue)),
  );
  const { items, NextToken } = page(all, input.NextToken, input.MaxResults);
  return { Resources: items.map(wireResource), NextToken };
};

/**
 * The scanned resources related to the given ones: those whose physical id the given ones' properties name, and
 * those whose properties name a given one.
 */
export const listResourceScanRelatedResources: Handler<'ListResourceScanRelatedResources'> = (ctx, input) => {
  const scan = completeScan(ctx, input.ResourceScanId);
  const { account, region } = ctx.caller;
  const propsOf = (r: ScannedResourceRecord) =>
    JSON.stringify(ctx.store.world.get(account, region, r.ResourceType, r.physicalId)?.properties ?? {});
  const given = scan.resources.filter((r) =>
    input.Resources.some(
      (g) => g.ResourceType === r.ResourceType && Object.values(g.ResourceIdentifier).includes(r.physicalId),
    ),
  );
  const givenText = given.map(propsOf).join('\n');
  const related = scan.resources.filter(
    (r) =>
      !given.includes(r) &&
      (givenText.includes(JSON.stringify(r.physicalId)) ||
        given.some((g) => propsOf(r).includes(JSON.stringify(g.physicalId)))),
  );
  const { items, NextToken } = page(related, input.NextToken, input.MaxResults);
  return { RelatedResources: items.map(wireResource), NextToken };
};

export const createGeneratedTemplate: Handler<'CreateGeneratedTemplate'> = (ctx, input) => ({
  GeneratedTemplateId: create(ctx.engine.deps, ctx.caller, input.GeneratedTemplateName, {
    stackName: input.StackName,
    add: input.Resources,
    deletionPolicy: input.TemplateConfiguration?.DeletionPolicy,
    updateReplacePolicy: input.TemplateConfiguration?.UpdateReplacePolicy,
  }),
});

export const updateGeneratedTemplate: Handler<'UpdateGeneratedTemplate'> = (ctx, input) => ({
  GeneratedTemplateId: update(ctx.engine.deps, templateNamed(ctx, input.GeneratedTemplateName), {
    name: input.NewGeneratedTemplateName,
    add: input.AddResources,
    remove: input.RemoveResources,
    refresh: input.RefreshAllResources,
    deletionPolicy: input.TemplateConfiguration?.DeletionPolicy,
    updateReplacePolicy: input.TemplateConfiguration?.UpdateReplacePolicy,
  }),
});

export const describeGeneratedTemplate: Handler<'DescribeGeneratedTemplate'> = (ctx, input) => {
  const t = templateNamed(ctx, input.GeneratedTemplateName);
  const done = t.status === 'COMPLETE' || t.status === 'FAILED';
  const failed = t.resources.filter((r) => r.failure).length;
  return {
    GeneratedTemplateId: t.id,
    GeneratedTemplateName: t.name,
    Resources: t.resources.map((r) => ({
      ResourceType: r.ResourceType,
      LogicalResourceId: r.LogicalResourceId,
      ResourceIdentifier: r.ResourceIdentifier,
      ResourceStatus: !done ? 'PENDING' : r.failure ? 'FAILED' : 'COMPLETE',
      ResourceStatusReason: !done ? undefined : (r.failure ?? 'Resource Template complete'),
      Warnings: r.warnings,
    })),
    Status: t.status,
    StatusReason:
      t.status === 'COMPLETE' ? 'All resources complete' : t.status === 'FAILED' ? 'Some resources failed' : undefined,
    CreationTime: new Date(t.createdAt),
    LastUpdatedTime: new Date(t.updatedAt),
    Progress: {
      ResourcesSucceeded: done ? t.resources.length - failed : 0,
      ResourcesFailed: done ? failed : 0,
      ResourcesProcessing: 0,
      ResourcesPending: done ? 0 : t.resources.length,
    },
    StackId: t.stackId,
    TemplateConfiguration: { DeletionPolicy: t.deletionPolicy, UpdateReplacePolicy: t.updateReplacePolicy },
    TotalWarnings: t.resources.reduce((n, r) => n + r.warnings.length, 0),
  };
};

export const getGeneratedTemplate: Handler<'GetGeneratedTemplate'> = (ctx, input) => {
  const t = templateNamed(ctx, input.GeneratedTemplateName);
  const stack = t.stackId ? ctx.store.stacks.byId(t.stackId) : undefined;
  const body = stack ? ctx.store.templates.body(stack.templateId) : undefined;
  const template = templateOf(t, body ? parseTemplate(body).doc : undefined);
  return { Status: t.status, TemplateBody: renderTemplate(template, input.Format === 'YAML' ? 'YAML' : 'JSON') };
};

export const listGeneratedTemplates: Handler<'ListGeneratedTemplates'> = (ctx, input) => {
  const { items, NextToken } = page(
    ctx.store.generator.templates(ctx.caller.account, ctx.caller.region),
    input.NextToken,
    input.MaxResults,
  );
  return {
    Summaries: items.map((t) => ({
      GeneratedTemplateId: t.id,
      GeneratedTemplateName: t.name,
      Status: t.status,
      StatusReason: t.status === 'COMPLETE' ? 'All resources complete' : undefined,
      CreationTime: new Date(t.createdAt),
      LastUpdatedTime: new Date(t.updatedAt),
      NumberOfResources: t.resources.length,
    })),
    NextToken,
  };
};

export const deleteGeneratedTemplate: Handler<'DeleteGeneratedTemplate'> = (ctx, input) => {
  remove(ctx.engine.deps.store, templateNamed(ctx, input.GeneratedTemplateName));
  return undefined;
};
