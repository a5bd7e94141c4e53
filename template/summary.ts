// The template as ValidateTemplate and GetTemplateSummary see it: processed without parameter values (defaults
// stand in), checked as the create path checks it, and described in AWS's output shapes.
// https://docs.aws.amazon.com/AWSCloudFormation/latest/APIReference/API_GetTemplateSummary.html
import { echo, validationError } from '../domain/errors.js';
import { parseTemplate } from './parse.js';
import { buildModel, readParameters } from './validate.js';
import { checkFunctionStructure } from './structure.js';
import { checkRulesShape } from './rules.js';
import { applyTransforms } from './transforms/index.js';
import { buildGraph } from './graph.js';
import { capabilitiesFor } from './index.js';
import { evaluate } from './intrinsics/index.js';
import type { ParameterValue } from './intrinsics/context.js';
import type { ParameterDef, TemplateModel } from './model.js';

export interface SummaryWorld {
  pseudo: Record<string, unknown>;
  availabilityZones: (region: string) => string[];
  isKnownType: (type: string) => boolean;
  primaryIdentifier: (type: string) => readonly string[] | undefined;
}

const defaultText = (def: ParameterDef) =>
  def.Default === undefined || def.Default === null
    ? undefined
    : Array.isArray(def.Default)
      ? def.Default.join(',')
      : String(def.Default);

/** Loop collections that Ref a parameter use its default (ValidateTemplate has no values). */
function defaultsOf(declared: Record<string, ParameterDef>): Map<string, ParameterValue> {
  const out = new Map<string, ParameterValue>();
  for (const [key, def] of Object.entries(declared)) {
    const text = defaultText(def);
    if (text === undefined) continue;
    out.set(key, def.Type.includes('List') || def.Type === 'CommaDelimitedList' ? text.split(',') : text);
  }
  return out;
}

export function staticModel(body: string, world: SummaryWorld): TemplateModel {
  const { doc } = parseTemplate(body);
  // The SAM translator, macros and AWS::Include are not run: these calls describe the template as written.
  const processed = applyTransforms(doc, {
    evaluate: (collection) => {
      const parameters = readParameters(doc.Parameters);
      const model: TemplateModel = {
        doc,
        parameters,
        mappings: (doc.Mappings ?? {}) as TemplateModel['mappings'],
        conditions: {},
        rules: {},
        resources: new Map(),
        outputs: [],
        transforms: [],
      };
      return evaluate(collection, {
        model,
        parameters: defaultsOf(parameters),
        pseudo: world.pseudo,
        conditions: new Map(),
        resourceRef: () => undefined,
        resourceAttribute: () => undefined,
        importValue: () => '',
        availabilityZones: world.availabilityZones,
        path: [],
        budget: { steps: 0 },
      });
    },
    parameterValues: () => ({}),
    account: String(world.pseudo['AWS::AccountId']),
    region: String(world.pseudo['AWS::Region']),
  });
  const model = buildModel(processed.doc);
  const unknown = [...new Set([...model.resources.values()].map((r) => r.type))].filter(
    (t) => !t.startsWith('Custom::') && !world.isKnownType(t),
  );
  if (unknown.length) {
    throw validationError(`Template format error: Unrecognized resource types: [${unknown.map(echo).join(', ')}]`);
  }
  checkFunctionStructure(model);
  checkRulesShape(model.rules);
  buildGraph(model, new Set(model.resources.keys()));
  return model;
}

function parameterDeclarations(model: TemplateModel, withType: boolean) {
  return Object.entries(model.parameters).map(([key, def]) => ({
    ParameterKey: key,
    DefaultValue: defaultText(def),
    ...(withType
      ? {
          ParameterType: def.Type,
          ParameterConstraints: def.AllowedValues ? { AllowedValues: def.AllowedValues.map(String) } : {},
        }
      : {}),
    NoEcho: def.NoEcho === true || def.NoEcho === 'true',
    Description: def.Description,
  }));
}

function capabilities(model: TemplateModel) {
  const { capabilities: caps, types } = capabilitiesFor(model, model.resources.keys());
  if (!caps.length) return {};
  return {
    Capabilities: caps,
    CapabilitiesReason: types.length
      ? `The following resource(s) require capabilities: [${types.join(', ')}]`
      : `The following transform(s) require capabilities: [${model.transforms.join(', ')}]`,
  };
}

export function validateTemplateOutput(model: TemplateModel) {
  return {
    Parameters: parameterDeclarations(model, false),
    Description: model.description,
    ...capabilities(model),
    DeclaredTransforms: model.transforms.length ? model.transforms : undefined,
  };
}

export function templateSummaryOutput(model: TemplateModel, world: SummaryWorld) {
  const byType = new Map<string, string[]>();
  for (const r of model.resources.values()) byType.set(r.type, [...(byType.get(r.type) ?? []), r.logicalId]);
  return {
    Parameters: parameterDeclarations(model, true),
    Description: model.description,
    ...capabilities(model),
    ResourceTypes: [...byType.keys()],
    Version: '2010-09-09',
    Metadata: model.metadata === undefined ? undefined : JSON.stringify(model.metadata),
    DeclaredTransforms: model.transforms,
    ResourceIdentifierSummaries: [...byType].flatMap(([type, ids]) => {
      const identifiers = world.primaryIdentifier(type);
      return identifiers?.length
        ? [{ ResourceType: type, LogicalResourceIds: ids, ResourceIdentifiers: [...identifiers] }]
        : [];
    }),
  };
}
