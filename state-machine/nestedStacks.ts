// The engine's door for nested stacks: a parent's AWS::CloudFormation::Stack resource creates, updates and deletes
// its child through the engine's own operations and waits for the child to settle, so every child is a real stack
// with its own events, and a failure inside it reaches the parent in AWS's "Embedded stack …" words.
import type { StackRecord } from '../storage/index.js';
import type {
  Deleted,
  NestedStackDoor,
  ProviderResult,
  Provisioned,
  Refusal,
  ResourceRequest,
} from '../resources/provider.js';
import { randomSuffix } from '../resources/names.js';
import { checkCapabilities } from '../template/index.js';
import type { GivenParameter } from '../template/parameters.js';
import type { Engine } from './engine.js';
import type { CreateStackInput } from './inputs.js';
import { expandForStack, prepareForStack } from './prepare.js';
import { describeTemplate, tagsOf as stackTags } from './stackRecords.js';
import { readS3Url } from '../resources/s3Urls.js';
import { createNestedStack } from './operations/create.js';
import { expandForUpdate, updateStack } from './operations/update.js';
import { deleteStack } from './operations/delete.js';
import { continueUpdateRollback } from './operations/continueRollback.js';
import { REASONS } from './outcomes.js';

const UPPER_ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** AWS's nested stack names end in 12 or 13 upper-case letters and digits (`root-Network-1A2B3C4D5E6F7`). */
const SUFFIX_LENGTH = 13;
/** Stack names are at most 128 characters: a deep tree's names keep their suffix and lose the end of the prefix. */
const MAX_NAME = 128;
const ROLLBACK_REQUESTED = ` ${REASONS.rollbackRequested}`;

const refusal = (reason: string): Refusal => ({ ok: false, code: 'NotStabilized', reason });
const sentence = (reason: string | undefined) => (reason ?? '').replace(ROLLBACK_REQUESTED, '').trim();

// Texts recorded on AWS (aws-ia/taskcat #414, serverless-nested-stack #2, Amplify tests).
export const EMBEDDED = {
  created: (id: string, reason: string) => `Embedded stack ${id} was not successfully created: ${reason}`,
  updated: (id: string, status: string, reason: string) =>
    `Embedded stack ${id} was not successfully updated. Currently in ${status} with reason: ${reason}`,
  deleted: (id: string, reason: string) => `Embedded stack ${id} was not successfully deleted: ${reason}`,
};

/** `Parameters` of the resource (a map) as the child's parameter list; list values are comma-delimited. */
export function parametersOf(properties: Record<string, unknown>): GivenParameter[] {
  const given = properties.Parameters;
  if (!given || typeof given !== 'object') return [];
  return Object.entries(given as Record<string, unknown>).map(([key, value]) => ({
    ParameterKey: key,
    ParameterValue: Array.isArray(value) ? value.map(String).join(',') : String(value),
  }));
}

function tagsOf(parent: StackRecord, properties: Record<string, unknown>) {
  const own = Array.isArray(properties.Tags) ? (properties.Tags as { Key?: string; Value?: string }[]) : [];
  // the parent's stack-level tags reach the child as they reach every resource, the child's own ones added
  const ownKeys = new Set(own.map((t) => t.Key));
  return [
    ...parent.doc.tags.filter((t) => !ownKeys.has(t.Key)),
    ...own.map((t) => ({ Key: String(t.Key), Value: String(t.Value) })),
  ];
}

export class NestedStacks implements NestedStackDoor {
  constructor(private readonly engine: Engine) {}

  /**
   * New children held before their first resource: AWS's order is the child's CREATE_IN_PROGRESS, the parent's
   * "Resource creation Initiated", then the child's resources (tools that follow a child from that event on, as the
   * CDK's deploy display does, see them all). Released when the parent waits on the child, or stops waiting.
   */
  private readonly held = new Map<string, () => void>();

  private release(stackId: string): void {
    this.held.get(stackId)?.();
    this.held.delete(stackId);
  }

  private get store() {
    return this.engine.deps.store;
  }

  /** The options a child inherits from the root: capabilities and whether failures roll back. */
  private rootOf(parent: StackRecord): StackRecord {
    return parent.doc.rootId ? (this.store.stacks.byId(parent.doc.rootId) ?? parent) : parent;
  }

  private childInput(req: ResourceRequest, parent: StackRecord): CreateStackInput {
    const root = this.rootOf(parent);
    const minutes = req.properties.TimeoutInMinutes;
    return {
      Parameters: parametersOf(req.properties),
      Tags: tagsOf(parent, req.properties),
      NotificationARNs: Array.isArray(req.properties.NotificationARNs)
        ? req.properties.NotificationARNs.map(String)
        : undefined,
      TimeoutInMinutes: minutes === undefined ? undefined : Number(minutes),
      Capabilities: root.doc.capabilities,
      DisableRollback: root.doc.disableRollback,
    };
  }

  async create(req: ResourceRequest): Promise<ProviderResult> {
    const { store } = this;
    const parent = store.stacks.byId(req.stackId)!;
    const input = this.childInput(req, parent);
    const prefix = `${parent.name}-${req.logicalId}`.slice(0, MAX_NAME - SUFFIX_LENGTH - 1);
    const name = `${prefix}-${randomSuffix(SUFFIX_LENGTH, UPPER_ALPHANUMERIC)}`;
    const child = this.engine.newStack({ account: req.account, region: req.region }, name, 'CREATE_IN_PROGRESS');
    Object.assign(child.doc, {
      tags: stackTags(input.Tags),
      capabilities: input.Capabilities,
      notificationARNs: input.NotificationARNs ?? [],
      disableRollback: input.DisableRollback ?? false,
      timeoutInMinutes: input.TimeoutInMinutes,
    });
    child.doc.parentId = parent.stackId;
    child.doc.rootId = parent.doc.rootId ?? parent.stackId;
    // the root's termination protection covers its whole tree (it cannot be set on a nested stack)
    child.doc.terminationProtection = this.rootOf(parent).doc.terminationProtection;
    let body: string;
    let template;
    try {
      body = await readS3Url(store, req, String(req.properties.TemplateURL ?? ''));
      const expanded = await expandForStack(this.engine.deps, child, body, input.Parameters);
      template = prepareForStack(store, child, expanded, input.Parameters);
      checkCapabilities(template, input.Capabilities);
    } catch (err) {
      return refusal((err as Error).message);
    }
    describeTemplate(child, template);
    const released = new Promise<void>((resolve) => this.held.set(child.stackId, resolve));
    req.signal?.addEventListener('abort', () => this.release(child.stackId), { once: true });
    const onFailure = input.DisableRollback ? 'DO_NOTHING' : 'ROLLBACK';
    createNestedStack(this.engine, child, template, body, onFailure, released);
    return { ok: true, physicalId: child.stackId, ref: child.stackId, attributes: {} };
  }

  async awaitCreate(req: ResourceRequest, created: Provisioned): Promise<ProviderResult> {
    const child = await this.childWhenIdle(created.physicalId, req.signal);
    if (!child) return refusal('Resource creation cancelled');
    if (child.status === 'CREATE_COMPLETE') return this.provisioned(child);
    return refusal(
      EMBEDDED.created(child.stackId, this.failure(child, ['ROLLBACK_IN_PROGRESS', 'CREATE_FAILED']).reason),
    );
  }

  async templateChanged(req: ResourceRequest): Promise<boolean> {
    const child = this.store.stacks.byId(req.physicalId ?? '');
    if (!child) return false;
    try {
      return (
        (await readS3Url(this.store, req, String(req.properties.TemplateURL ?? ''))) !==
        this.store.templates.body(child.templateId)
      );
    } catch {
      return false;
    }
  }

  async update(req: ResourceRequest): Promise<ProviderResult> {
    const id = req.physicalId!;
    let child = await this.childWhenIdle(id);
    if (!child || child.status === 'DELETE_COMPLETE') return refusal(`Stack with id ${id} does not exist`);
    // the parent's rollback (or ContinueUpdateRollback on the root) carries on a child's failed rollback
    if (req.rollingBack && child.status === 'UPDATE_ROLLBACK_FAILED')
      return this.continueRollback(child, req.resourcesToSkip);
    const parent = this.store.stacks.byId(req.stackId)!;
    try {
      const body = await readS3Url(this.store, req, String(req.properties.TemplateURL ?? ''));
      const { TimeoutInMinutes: _unused, ...input } = this.childInput(req, parent);
      updateStack(this.engine, child, input, await expandForUpdate(this.engine, child, input, body));
    } catch (err) {
      // an unchanged child is left alone: the parent's resource still completes
      if ((err as Error).message === 'No updates are to be performed.') return this.provisioned(child);
      return refusal((err as Error).message);
    }
    child = (await this.childWhenIdle(id))!;
    if (child.status === 'UPDATE_COMPLETE') return this.provisioned(child);
    const failure = this.failure(child, ['UPDATE_ROLLBACK_IN_PROGRESS', 'UPDATE_FAILED', 'ROLLBACK_IN_PROGRESS']);
    return refusal(EMBEDDED.updated(child.stackId, failure.status, failure.reason));
  }

  private async continueRollback(child: StackRecord, skip: string[] | undefined): Promise<ProviderResult> {
    try {
      continueUpdateRollback(this.engine, child, { ResourcesToSkip: skip });
    } catch (err) {
      return refusal((err as Error).message);
    }
    const settled = (await this.childWhenIdle(child.stackId))!;
    if (settled.status === 'UPDATE_ROLLBACK_COMPLETE') return this.provisioned(settled);
    return refusal(EMBEDDED.updated(settled.stackId, settled.status, sentence(settled.statusReason)));
  }

  async delete(req: ResourceRequest): Promise<Deleted> {
    const id = req.physicalId!;
    let child = await this.childWhenIdle(id);
    if (!child || child.status === 'DELETE_COMPLETE') return { ok: true };
    try {
      deleteStack(this.engine, child, {}, { byParent: true });
    } catch (err) {
      return refusal((err as Error).message);
    }
    child = (await this.childWhenIdle(id))!;
    if (child.status === 'DELETE_COMPLETE') return { ok: true };
    return refusal(EMBEDDED.deleted(child.stackId, sentence(child.statusReason)));
  }

  /** The child once no operation runs on it; undefined if the parent stopped waiting (a sibling failed). */
  private async childWhenIdle(stackId: string, signal?: AbortSignal): Promise<StackRecord | undefined> {
    this.release(stackId);
    return this.engine.stackWhenIdle(stackId, signal);
  }

  private provisioned(child: StackRecord): Provisioned {
    const attributes: Record<string, unknown> = {};
    for (const o of child.doc.outputs) attributes[`Outputs.${o.OutputKey}`] = o.OutputValue;
    return { ok: true, physicalId: child.stackId, ref: child.stackId, attributes };
  }

  /** The status the child's failure first took and its reason, from the child's newest such stack event. */
  private failure(child: StackRecord, statuses: string[]): { status: string; reason: string } {
    for (const e of this.store.events.page(child.stackId, undefined, 1000)) {
      if (e.logicalId === child.name && e.physicalId === child.stackId && statuses.includes(e.status)) {
        return { status: e.status, reason: sentence(e.reason) };
      }
    }
    return { status: child.status, reason: sentence(child.statusReason) };
  }
}
