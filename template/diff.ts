// The change model of a change set: which resources are added, removed, imported or modified between the deployed
// stack and the new template, with Replacement, Scope, Details and PolicyAction as DescribeChangeSet reports them.
// Evidence: AWS responses recorded in LocalStack's snapshot tests (cfn/test_change_sets.py
// TestCaptureUpdateProcess: test_direct_update, test_dynamic_update, test_parameter_changes).
import { isDeepStrictEqual } from 'node:util';
import type { PreparedTemplate } from './index.js';
import type { ResourceDef } from './model.js';
import {
  contextOf,
  isUnknown,
  previewValue,
  references,
  shownValue,
  type SourceState,
  type ValueSources,
} from './diffValues.js';

export { KNOWN_AFTER_APPLY } from './diffValues.js';

export type RequiresRecreation = 'Never' | 'Conditionally' | 'Always';

export interface DeployedResource {
  logicalId: string;
  type: string;
  physicalId?: string;
  properties: Record<string, unknown>;
  ref?: string;
  attributes: Record<string, unknown>;
  deletionPolicy?: string;
}

export interface ChangeRules {
  /** RequiresRecreation of one property change; `after` is undefined when only execution can tell. */
  recreation(type: string, property: string, before: unknown, after: unknown): RequiresRecreation;
  tagProperty(type: string): string | undefined;
  /** The DeletionPolicy a resource gets when its template names none (Snapshot for some RDS types). */
  defaultDeletionPolicy(type: string, properties: Record<string, unknown>): string;
  supportsSnapshot(type: string): boolean;
}

export interface ChangeModelInput {
  before?: PreparedTemplate;
  after: PreparedTemplate;
  deployed: DeployedResource[];
  pseudo: Record<string, unknown>;
  importValue: (name: string) => string | undefined;
  availabilityZones: (region: string) => string[];
  rules: ChangeRules;
  /** The stack's tags change with this change set: every taggable resource is modified. */
  stackTagsChanged?: boolean;
  /** IMPORT change sets: logical id → the physical id being imported. */
  imports?: Map<string, string>;
}

export interface Detail {
  Target: {
    Attribute: string;
    Name?: string;
    RequiresRecreation: RequiresRecreation;
    Path?: string;
    BeforeValue?: string;
    AfterValue?: string;
    AttributeChangeType?: 'Add' | 'Remove' | 'Modify';
  };
  Evaluation: 'Static' | 'Dynamic';
  ChangeSource: 'ResourceReference' | 'ParameterReference' | 'ResourceAttribute' | 'DirectModification' | 'Automatic';
  CausingEntity?: string;
  /** Shown only with IncludePropertyValues (AWS adds the Dynamic twin of a resource-caused detail only then). */
  valuesOnly?: boolean;
}

export interface ResourceChange {
  Action: 'Add' | 'Modify' | 'Remove' | 'Import' | 'Dynamic';
  LogicalResourceId: string;
  PhysicalResourceId?: string;
  ResourceType: string;
  Replacement?: 'True' | 'False' | 'Conditional';
  PolicyAction?: string;
  Scope: string[];
  Details: Detail[];
  BeforeContext?: string;
  AfterContext?: string;
  /** The nested change set planned for this nested stack (IncludeNestedStacks). */
  ChangeSetId?: string;
}

export interface ChangeModel {
  changes: ResourceChange[];
  /** Why some values could not be previewed (AWS's "[WARN] --include-property-values …" StatusReason). */
  warnings: { logicalId: string; message: string }[];
}

/** Scope members in the order AWS lists them. */
const SCOPE_ORDER = [
  'Properties',
  'Metadata',
  'CreationPolicy',
  'UpdatePolicy',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'Tags',
];
const RESOURCE_ATTRIBUTES: [keyof ResourceDef, string][] = [
  ['metadata', 'Metadata'],
  ['creationPolicy', 'CreationPolicy'],
  ['updatePolicy', 'UpdatePolicy'],
  ['deletionPolicy', 'DeletionPolicy'],
  ['updateReplacePolicy', 'UpdateReplacePolicy'],
];
const RANK: Record<RequiresRecreation, number> = { Never: 0, Conditionally: 1, Always: 2 };

/** The working state of one plan: what each resource becomes, as later resources read it. */
interface Plan {
  input: ChangeModelInput;
  deployed: Map<string, DeployedResource>;
  afterProps: Map<string, Record<string, unknown>>;
  state: Map<string, SourceState>;
  sources: ValueSources;
  changedParams: Set<string>;
  warnings: ChangeModel['warnings'];
}

export function resourceChanges(input: ChangeModelInput): ChangeModel {
  const plan = newPlan(input);
  const changes = input.after.graph.order
    .map((id) => planResource(plan, id))
    .filter((c): c is ResourceChange => c !== undefined);
  for (const old of input.deployed) {
    if (input.after.active.has(old.logicalId)) continue;
    changes.push({
      Action: 'Remove',
      LogicalResourceId: old.logicalId,
      PhysicalResourceId: old.physicalId,
      ResourceType: old.type,
      PolicyAction: removePolicyAction(old, input.rules),
      Scope: [],
      Details: [],
      BeforeContext: contextOf(old.properties),
    });
  }
  return { changes, warnings: plan.warnings };
}

function newPlan(input: ChangeModelInput): Plan {
  const deployed = new Map(input.deployed.map((d) => [d.logicalId, d]));
  const afterProps = new Map<string, Record<string, unknown>>();
  const state = new Map<string, SourceState>();
  const sources: ValueSources = {
    state,
    pseudo: input.pseudo,
    importValue: input.importValue,
    availabilityZones: input.availabilityZones,
    ref: (id) => deployed.get(id)?.ref,
    // An attribute named like a property follows an in-place update of that property; others keep their value.
    attribute: (id, attr) => {
      const next = state.get(id) === 'modified' ? afterProps.get(id)?.[attr] : undefined;
      return next !== undefined && typeof next !== 'object' ? next : deployed.get(id)?.attributes[attr];
    },
  };
  const previous = (key: string) => input.before?.parameters.find((q) => q.key === key)?.raw;
  const changedParams = new Set(input.after.parameters.filter((p) => previous(p.key) !== p.raw).map((p) => p.key));
  return { input, deployed, afterProps, state, sources, changedParams, warnings: [] };
}

/** The change of one resource of the new template, in dependency order, or undefined when it does not change. */
function planResource(plan: Plan, id: string): ResourceChange | undefined {
  const { before, after, rules, imports, stackTagsChanged } = plan.input;
  const def = after.model.resources.get(id)!;
  const props = previewValue(after, plan.sources, def.properties, (message) =>
    plan.warnings.push({ logicalId: id, message }),
  ) as Record<string, unknown>;
  plan.afterProps.set(id, props);
  const old = plan.deployed.get(id);
  const oldDef = before?.model.resources.get(id);
  if (imports?.has(id)) {
    return {
      Action: 'Import',
      LogicalResourceId: id,
      PhysicalResourceId: imports.get(id),
      ResourceType: def.type,
      Scope: [],
      Details: [],
      AfterContext: contextOf(props),
    };
  }
  if (!old || !oldDef) {
    plan.state.set(id, 'added');
    return {
      Action: 'Add',
      LogicalResourceId: id,
      ResourceType: def.type,
      Scope: [],
      Details: [],
      AfterContext: contextOf(props),
    };
  }
  const details = [
    ...propertyDetails({ def, oldDef, old, props, changedParams: plan.changedParams, state: plan.state, rules }),
    ...attributeDetails(def, oldDef),
    ...automaticDetails(def, rules, stackTagsChanged),
  ];
  if (!details.length) return undefined;
  const replacement = replacementOf(details);
  plan.state.set(id, replacement === 'True' ? 'replaced' : replacement === 'Conditional' ? 'conditional' : 'modified');
  return {
    Action: 'Modify',
    LogicalResourceId: id,
    PhysicalResourceId: old.physicalId,
    ResourceType: def.type,
    Replacement: replacement,
    PolicyAction: replacement === 'True' ? replacePolicyAction(after, plan.sources, def, rules) : undefined,
    Scope: SCOPE_ORDER.filter((s) => details.some((d) => scopeOf(d) === s)),
    Details: details,
    BeforeContext: contextOf(old.properties),
    AfterContext: contextOf(props),
  };
}

interface PropertyInput {
  def: ResourceDef;
  oldDef: ResourceDef;
  old: DeployedResource;
  props: Record<string, unknown>;
  changedParams: Set<string>;
  state: Map<string, SourceState>;
  rules: ChangeRules;
}

function propertyDetails(p: PropertyInput): Detail[] {
  const names = [...new Set([...Object.keys(p.oldDef.properties), ...Object.keys(p.def.properties)])];
  const tagProperty = p.rules.tagProperty(p.def.type);
  const details: Detail[] = [];
  for (const name of names) {
    const before = p.old.properties[name];
    const after = p.props[name];
    const unknown = isUnknown(after);
    if (!unknown && sameValue(before, after)) continue;
    const recreation = p.rules.recreation(p.def.type, name, before, unknown ? undefined : after);
    const target: Detail['Target'] = {
      Attribute: name === tagProperty ? 'Tags' : 'Properties',
      ...(name === tagProperty ? {} : { Name: name }),
      RequiresRecreation: recreation,
      Path: `/Properties/${name}`,
      BeforeValue: shownValue(before),
      AfterValue: shownValue(after),
      AttributeChangeType: before === undefined ? 'Add' : after === undefined ? 'Remove' : 'Modify',
    };
    if (!isDeepStrictEqual(p.oldDef.properties[name], p.def.properties[name])) {
      details.push({ Target: target, Evaluation: 'Static', ChangeSource: 'DirectModification' });
      continue;
    }
    details.push(...causedDetails(p, name, target, unknown));
  }
  return details;
}

/** A property whose template text is unchanged but whose value changes: say what caused it. */
function causedDetails(p: PropertyInput, name: string, target: Detail['Target'], unknown: boolean): Detail[] {
  const dynamic: Detail = { Target: target, Evaluation: 'Dynamic', ChangeSource: 'DirectModification' };
  const out: Detail[] = [];
  const seen = new Set<string>();
  for (const ref of references(p.def.properties[name])) {
    if (p.changedParams.has(ref.target) && ref.kind === 'Ref') {
      if (!seen.has(ref.target))
        out.push({
          Target: target,
          Evaluation: 'Static',
          ChangeSource: 'ParameterReference',
          CausingEntity: ref.target,
        });
      seen.add(ref.target);
      continue;
    }
    const source = p.state.get(ref.target);
    if (!source || source === 'added') continue;
    if (source === 'modified' && ref.kind === 'Ref') continue;
    const entity = ref.kind === 'Ref' ? ref.target : `${ref.target}.${ref.attribute}`;
    if (seen.has(entity)) continue;
    seen.add(entity);
    // A source that may or may not be replaced makes this change Dynamic, and an Always at most Conditionally.
    const conditional = source === 'conditional';
    out.push({
      Target:
        conditional && target.RequiresRecreation === 'Always'
          ? { ...target, RequiresRecreation: 'Conditionally' }
          : target,
      Evaluation: conditional ? 'Dynamic' : 'Static',
      ChangeSource: ref.kind === 'Ref' ? 'ResourceReference' : 'ResourceAttribute',
      CausingEntity: entity,
    });
  }
  // No cause: a value read from outside changed (an export, an SSM parameter); an unreadable one is not a change.
  if (!out.length) return unknown ? [] : [dynamic];
  // AWS pairs a parameter-caused detail with its Dynamic twin always, a resource-caused one only when values are shown.
  const byParameter = out.some((d) => d.ChangeSource === 'ParameterReference');
  return [...out, byParameter ? dynamic : { ...dynamic, valuesOnly: true }];
}

function attributeDetails(def: ResourceDef, oldDef: ResourceDef): Detail[] {
  return RESOURCE_ATTRIBUTES.filter(([key]) => !isDeepStrictEqual(def[key], oldDef[key])).map(([key, attribute]) => ({
    Target: {
      Attribute: attribute,
      RequiresRecreation: 'Never' as const,
      Path: `/${attribute}`,
      BeforeValue: shownValue(oldDef[key]),
      AfterValue: shownValue(def[key]),
      AttributeChangeType:
        oldDef[key] === undefined
          ? ('Add' as const)
          : def[key] === undefined
            ? ('Remove' as const)
            : ('Modify' as const),
    },
    Evaluation: 'Static' as const,
    ChangeSource: 'DirectModification' as const,
  }));
}

/** Nested stacks are always re-examined (ChangeSource Automatic); stack tags reach every taggable resource. */
function automaticDetails(def: ResourceDef, rules: ChangeRules, stackTagsChanged?: boolean): Detail[] {
  const out: Detail[] = [];
  if (def.type === 'AWS::CloudFormation::Stack') {
    out.push({
      Target: { Attribute: 'Properties', RequiresRecreation: 'Never' },
      Evaluation: 'Dynamic',
      ChangeSource: 'Automatic',
    });
  }
  if (stackTagsChanged && rules.tagProperty(def.type)) {
    out.push({
      Target: { Attribute: 'Tags', RequiresRecreation: 'Never' },
      Evaluation: 'Static',
      ChangeSource: 'DirectModification',
    });
  }
  return out;
}

function scopeOf(d: Detail): string {
  return d.ChangeSource === 'Automatic' ? 'Properties' : d.Target.Attribute;
}

/** AWS: Always + Static → True; Always + Dynamic or Conditionally → Conditional; the strongest detail wins. */
function replacementOf(details: Detail[]): 'True' | 'False' | 'Conditional' {
  if (details.some((d) => d.Target.RequiresRecreation === 'Always' && d.Evaluation === 'Static')) return 'True';
  return details.some((d) => RANK[d.Target.RequiresRecreation] > 0) ? 'Conditional' : 'False';
}

function replacePolicyAction(
  after: PreparedTemplate,
  sources: ValueSources,
  def: ResourceDef,
  rules: ChangeRules,
): string {
  const policy =
    def.updateReplacePolicy === undefined
      ? 'Delete'
      : String(previewValue(after, sources, def.updateReplacePolicy, () => {}));
  if (policy === 'Retain') return 'ReplaceAndRetain';
  return policy === 'Snapshot' && rules.supportsSnapshot(def.type) ? 'ReplaceAndSnapshot' : 'ReplaceAndDelete';
}

function removePolicyAction(old: DeployedResource, rules: ChangeRules): string {
  const policy = old.deletionPolicy ?? rules.defaultDeletionPolicy(old.type, old.properties);
  if (policy === 'Retain' || policy === 'RetainExceptOnCreate') return 'Retain';
  return policy === 'Snapshot' && rules.supportsSnapshot(old.type) ? 'Snapshot' : 'Delete';
}

/** Deep equality as CloudFormation compares resolved values: `5` and `"5"` are the same. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a === 'object' || typeof b === 'object') {
    if (typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
    const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
    return [...keys].every((k) => sameValue(x[k], y[k]));
  }
  return String(a) === String(b);
}
