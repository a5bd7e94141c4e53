// The working state of one stack operation: the template being applied, its parameters and conditions, the
// stack's resources, and the evaluation context intrinsic functions read from.
import type { Store, StackRecord, ResourceRecord } from '../storage/index.js';
import type { PreparedTemplate } from '../template/index.js';
import { evaluate } from '../template/intrinsics/index.js';
import {
  TemplateError,
  type EvalContext,
  type ParameterValue,
  type StackOutputRequest,
} from '../template/intrinsics/context.js';
import { resolveDynamicReferences } from '../template/dynamicReferences.js';
import { availabilityZones, partitionOf, urlSuffixOf } from '../resources/regions.js';
import { providerFor } from '../resources/registry.js';
import type { AccountScope, ProviderEnv, WorldAccess } from '../resources/provider.js';
import type { OperationContext } from './transitions.js';
import { randomSuffix } from '../resources/names.js';
import { readSsmParameter } from '../resources/ssmParameters.js';
import { VALUE_OF_ATTRIBUTES, supportsValueOf, valueOfAttribute } from '../resources/parameterAttributes.js';
import type { Faults } from '../resources/faults.js';
import type { HookDoor } from './hooks/invoke.js';

export interface Runtime extends OperationContext {
  stack: StackRecord;
  template: PreparedTemplate;
  resources: Map<string, ResourceRecord>;
  accountScope: AccountScope;
  world: WorldAccess;
  faults: Faults;
  /** The account's hooks and their verdicts on demand (state-machine/hooks/); absent, no hook runs. */
  hooks?: HookDoor;
  /** Export names read through Fn::ImportValue during this operation. */
  imports: Set<string>;
  /** Stops the operation from outside: CancelUpdateStack or TimeoutInMinutes (the reason says which). */
  stop: AbortController;
  /** Why the run was stopped: CancelUpdateStack, the stack's timeout, or DeleteStack during a create. */
  stopReason?: 'cancelled' | 'timed-out' | 'deleted';
  /** A restart resuming this operation: the resources whose waits go on (state-machine/resumeWaits.ts). */
  resumedWaits?: Set<string>;
  /** A create's OnFailure (ROLLBACK when unset): what its failure does (operations/create.ts). */
  onFailure?: string;
  /** While rolling back another operation: its id (what it created is what RetainExceptOnCreate deletes). */
  rollbackOf?: string;
  options: {
    disableRollback: boolean;
    retainExceptOnCreate: boolean;
    retainResources?: string[];
    adopt?: Record<string, string>;
    express?: boolean;
    /** ContinueUpdateRollback's `Nested.Logical` skips, by the nested stack's logical id. */
    nestedSkips?: Record<string, string[]>;
  };
  /** What providers that talk to the outside need (wait conditions, custom resources). */
  env?: ProviderEnv;
}

export function accountScope(stack: StackRecord): AccountScope {
  return {
    account: stack.account,
    region: stack.region,
    partition: partitionOf(stack.region),
    urlSuffix: urlSuffixOf(stack.region),
  };
}

export function worldAccess(store: Store, scope: AccountScope, now: () => Date): WorldAccess {
  return {
    get: (type, id) => store.world.get(scope.account, scope.region, type, id),
    byName: (type, name) => store.world.byName(scope.account, scope.region, type, name),
    byNameInAccount: (type, name) => store.world.byNameInAccount(scope.account, type, name),
    list: (type) => store.world.list({ type, account: scope.account, region: scope.region }),
    put: (r) => store.world.put(r),
    remove: (type, id) => store.world.remove(scope.account, scope.region, type, id),
    now: () => now().toISOString(),
    random: (length) => randomSuffix(length),
  };
}

export function pseudoParameters(stack: StackRecord, scope: AccountScope): Record<string, unknown> {
  return {
    'AWS::AccountId': scope.account,
    'AWS::Region': scope.region,
    'AWS::StackName': stack.name,
    'AWS::StackId': stack.stackId,
    'AWS::Partition': scope.partition,
    'AWS::URLSuffix': scope.urlSuffix,
    'AWS::NotificationARNs': stack.doc.notificationARNs,
  };
}

/** The evaluation context over the runtime's current resources; Ref/GetAtt read their latest values. */
export function evalContext(
  rt: Pick<Runtime, 'store' | 'stack' | 'template' | 'resources' | 'accountScope'> & { imports?: Set<string> },
  resolveDynamic = true,
): EvalContext {
  const { template } = rt;
  const world = templateWorld(rt.store, rt.stack);
  return {
    model: template.model,
    parameters: new Map<string, ParameterValue>(template.parameters.map((p) => [p.key, p.value])),
    pseudo: pseudoParameters(rt.stack, rt.accountScope),
    conditions: template.conditions,
    resourceRef(logicalId) {
      const r = rt.resources.get(logicalId);
      if (!r?.doc.ref) throw new TemplateError(`Resource ${logicalId} is not available`, true);
      return r.doc.ref;
    },
    resourceAttribute(logicalId, attribute) {
      const r = rt.resources.get(logicalId);
      const type = r?.type ?? template.model.resources.get(logicalId)?.type ?? '';
      if (!providerFor(type).supportsAttribute(type, attribute)) {
        throw new TemplateError(
          `Template error: resource ${logicalId} does not support attribute type ${attribute} in Fn::GetAtt`,
          true,
        );
      }
      const value = r?.doc.attributes?.[attribute];
      if (value === undefined) throw new TemplateError(`Resource ${logicalId} is not available`, true);
      return value;
    },
    importValue(name) {
      rt.imports?.add(name);
      const found = rt.store.exports.get(rt.accountScope.account, rt.accountScope.region, name);
      if (!found) throw new TemplateError(`No export named ${name} found.`, true);
      return found.value;
    },
    availabilityZones,
    stackOutput: (req) => world.stackOutput(req),
    dynamicReferences: resolveDynamic ? (text) => resolveDynamicReferences(text, world) : undefined,
    path: [],
    budget: { steps: 0 },
  };
}

export function evaluateIn(rt: Parameters<typeof evalContext>[0], value: unknown, resolveDynamic = true): unknown {
  return evaluate(value, evalContext(rt, resolveDynamic));
}

/** Each operation's resolved properties, by the evaluated object: a resource's references resolve once per action. */
const RESOLVED = new WeakMap<object, WeakMap<object, unknown>>();

/**
 * Resolves `{{resolve:…}}` dynamic references in evaluated values. Stored properties (events, drift, change sets)
 * keep the references, as AWS never shows the values; only what a provider receives is resolved. An object already
 * resolved in this operation (its check before the action, then the provider's request) is not resolved again.
 */
export function resolveDynamicIn(rt: Pick<Runtime, 'store' | 'stack'>, value: unknown, lenient = false): unknown {
  if (value === null || typeof value !== 'object') return resolveValue(rt, value, lenient);
  let cache = RESOLVED.get(rt);
  if (!cache) RESOLVED.set(rt, (cache = new WeakMap()));
  if (cache.has(value)) return cache.get(value);
  const resolved = resolveValue(rt, value, lenient);
  // a lenient result may keep a reference that did not resolve: only a full resolution is remembered
  if (!lenient) cache.set(value, resolved);
  return resolved;
}

function resolveValue(rt: Pick<Runtime, 'store' | 'stack'>, value: unknown, lenient: boolean): unknown {
  if (typeof value === 'string') {
    if (!value.includes('{{resolve:')) return value;
    try {
      return resolveDynamicReferences(value, templateWorld(rt.store, rt.stack));
    } catch (err) {
      // a delete goes by physical id: a reference whose parameter or secret is gone stays as written
      if (lenient) return value;
      throw err;
    }
  }
  if (Array.isArray(value)) return value.map((v) => resolveValue(rt, v, lenient));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(rt, v, lenient)]));
  }
  return value;
}

const asText = (value: unknown) =>
  value === undefined ? undefined : Array.isArray(value) ? value.join(',') : String(value);

/** What the template language reads from the stack's account and region of the simulated world. */
export function templateWorld(store: Store, stack: Pick<StackRecord, 'account' | 'region'>) {
  const { account, region } = stack;
  const find = (type: string, id: string) =>
    store.world.get(account, region, type, id) ?? store.world.byName(account, region, type, id);
  return {
    ssm: (name: string, version?: number) => readSsmParameter(store.world, stack, name, version)?.Value,
    secret: (id: string) => {
      const found =
        find('AWS::SecretsManager::Secret', id) ??
        store.world
          .list({ type: 'AWS::SecretsManager::Secret', account, region })
          .find((r) => r.properties.Name === id);
      return asText(found?.properties.SecretString ?? found?.attributes.SecretString);
    },
    exists: (type: string, id: string) => find(type, id) !== undefined,
    parameterAttribute: (parameterType: string, id: string, attribute: string) => {
      if (!supportsValueOf(parameterType, attribute)) return undefined;
      const found = find(VALUE_OF_ATTRIBUTES[parameterType]!.type, id);
      return found ? valueOfAttribute(found, attribute) : '';
    },
    stackOutput: (req: StackOutputRequest) => {
      const target = req.stackName.startsWith('arn:')
        ? store.stacks.byId(req.stackName)
        : store.stacks.liveByName(req.account, req.region, req.stackName);
      if (
        !target ||
        target.account !== req.account ||
        target.region !== req.region ||
        target.status === 'DELETE_COMPLETE'
      ) {
        throw new TemplateError(`Stack with id ${req.stackName} does not exist`, true);
      }
      const output = target.doc.outputs.find((o) => o.OutputKey === req.outputName);
      if (!output) throw new TemplateError(`Output ${req.outputName} does not exist in stack ${req.stackName}`, true);
      return output.OutputValue;
    },
  };
}
