// Second pass: the parsed object → a TemplateModel, refusing structural defects with AWS's exact texts.
import { echo, validationError } from '../domain/errors.js';
import type { OutputDef, ParameterDef, ResourceDef, TemplateModel } from './model.js';
import { declaredTransforms } from './transforms/index.js';
import { SERVERLESS } from './transforms/pending.js';
import { isObject } from '../domain/values.js';

const SECTIONS = new Set([
  'AWSTemplateFormatVersion',
  'Description',
  'Metadata',
  'Parameters',
  'Rules',
  'Mappings',
  'Conditions',
  'Transform',
  'Resources',
  'Outputs',
  'Hooks',
]);
const RESOURCE_KEYS = new Set([
  'Type',
  'Properties',
  'DependsOn',
  'Condition',
  'DeletionPolicy',
  'UpdateReplacePolicy',
  'Metadata',
  'CreationPolicy',
  'UpdatePolicy',
  'Version',
  'Description',
]);
const PARAMETER_KEYS = new Set([
  'Type',
  'Default',
  'NoEcho',
  'AllowedValues',
  'AllowedPattern',
  'MinLength',
  'MaxLength',
  'MinValue',
  'MaxValue',
  'Description',
  'ConstraintDescription',
]);
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;

export const LIMITS = { resources: 500, outputs: 200, parameters: 200, mappings: 200, descriptionBytes: 1024 };

const formatError = (message: string) => validationError(`Template format error: ${message}`);

export function buildModel(doc: Record<string, unknown>): TemplateModel {
  // SAM's Globals section is the translator's to consume; it stands only in a template not yet transformed.
  const sam = () => declaredTransforms(doc.Transform).includes(SERVERLESS);
  const unknown = Object.keys(doc).filter((k) => !SECTIONS.has(k) && !(k === 'Globals' && sam()));
  if (unknown.length) throw formatError(`Invalid template property or properties [${unknown.map(echo).join(', ')}]`);
  checkVersion(doc.AWSTemplateFormatVersion);
  const description = checkDescription(doc.Description);
  return {
    doc,
    description,
    parameters: readParameters(doc.Parameters),
    mappings: readMappings(doc.Mappings),
    conditions: readSection(doc.Conditions, 'Conditions'),
    rules: readSection(doc.Rules, 'Rules'),
    resources: readResources(doc.Resources),
    outputs: readOutputs(doc.Outputs),
    transforms: declaredTransforms(doc.Transform),
    metadata: doc.Metadata,
  };
}

function checkVersion(version: unknown): void {
  if (version === undefined) return;
  if (version !== '2010-09-09') throw formatError(`Unsupported template version ${echo(version)}`);
}

function checkDescription(description: unknown): string | undefined {
  if (description === undefined) return undefined;
  if (typeof description !== 'string') throw formatError('Every Description member must be a string.');
  if (Buffer.byteLength(description) > LIMITS.descriptionBytes) {
    throw validationError(`Template format error: 'Description' length is greater than ${LIMITS.descriptionBytes}.`);
  }
  return description;
}

function readSection(value: unknown, name: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw formatError(`Every ${name} member must be an object.`);
  return value;
}

export function readParameters(value: unknown): Record<string, ParameterDef> {
  const params = readSection(value, 'Parameters');
  const names = Object.keys(params);
  if (names.length > LIMITS.parameters) {
    throw formatError(`Parameter count ${names.length} is greater than max value ${LIMITS.parameters}`);
  }
  for (const name of names) {
    if (!ALPHANUMERIC.test(name)) throw formatError(`Parameter name ${echo(name)} is non alphanumeric.`);
    const def = params[name];
    if (!isObject(def)) throw formatError(`Every Parameters object must contain a Type member.`);
    if (def.Type === undefined) throw formatError(`Every Parameters object must contain a Type member.`);
    const unknown = Object.keys(def).filter((k) => !PARAMETER_KEYS.has(k));
    if (unknown.length) throw formatError(`Invalid template parameter property '${echo(unknown[0])}'`);
    if (
      def.Default !== undefined &&
      def.Default !== null &&
      typeof def.Default === 'object' &&
      !Array.isArray(def.Default)
    ) {
      throw formatError('Every Default member must be a string.');
    }
    if (def.AllowedValues !== undefined && !Array.isArray(def.AllowedValues)) {
      throw formatError(`Every AllowedValues member must be a list.`);
    }
  }
  return params as Record<string, ParameterDef>;
}

function readMappings(value: unknown): TemplateModel['mappings'] {
  const mappings = readSection(value, 'Mappings');
  if (Object.keys(mappings).length > LIMITS.mappings) {
    throw formatError(`Mappings count ${Object.keys(mappings).length} is greater than max value ${LIMITS.mappings}`);
  }
  for (const [name, map] of Object.entries(mappings)) {
    if (!isObject(map)) throw formatError(`Every Mappings member ${name} must be a map`);
    for (const second of Object.values(map)) {
      if (!isObject(second)) throw formatError(`Every Mappings member ${name} must be a map`);
      for (const leaf of Object.values(second)) {
        const ok =
          typeof leaf === 'string' ||
          typeof leaf === 'number' ||
          typeof leaf === 'boolean' ||
          (Array.isArray(leaf) && leaf.every((x) => typeof x !== 'object' || x === null));
        if (!ok) throw formatError('Every Mappings attribute must be a String or a List.');
      }
    }
  }
  return mappings as TemplateModel['mappings'];
}

function readResources(value: unknown): Map<string, ResourceDef> {
  if (value === undefined || value === null) throw formatError('At least one Resources member must be defined.');
  if (!isObject(value)) throw formatError('Any Resources member must be an object.');
  const entries = Object.entries(value);
  if (entries.length === 0) throw formatError('At least one Resources member must be defined.');
  if (entries.length > LIMITS.resources) {
    throw formatError(`Number of resources, ${entries.length}, is greater than maximum allowed, ${LIMITS.resources}`);
  }
  const resources = new Map<string, ResourceDef>();
  entries.forEach(([logicalId, def], ord) => resources.set(logicalId, readResource(logicalId, def, ord)));
  return resources;
}

function readResource(logicalId: string, def: unknown, ord: number): ResourceDef {
  if (!ALPHANUMERIC.test(logicalId)) throw formatError(`Resource name ${echo(logicalId)} is non alphanumeric.`);
  if (!isObject(def) || def.Type === undefined) {
    throw formatError(`[/Resources/${logicalId}] Every Resources object must contain a Type member.`);
  }
  for (const key of Object.keys(def)) {
    // AWS omits the "Template format error:" prefix for this one.
    if (!RESOURCE_KEYS.has(key)) throw validationError(`Invalid template resource property '${echo(key)}'`);
  }
  if (typeof def.Type !== 'string') {
    throw formatError(`[/Resources/${logicalId}/Type] Every Type member must be a string.`);
  }
  const props = def.Properties ?? {};
  if (!isObject(props)) throw formatError(`[/Resources/${logicalId}/Properties] properties must be an object.`);
  const dependsOn = def.DependsOn === undefined ? [] : Array.isArray(def.DependsOn) ? def.DependsOn : [def.DependsOn];
  if (!dependsOn.every((d) => typeof d === 'string')) {
    throw formatError(`[/Resources/${logicalId}/DependsOn] DependsOn must be a string or a list of strings.`);
  }
  if (def.Condition !== undefined && typeof def.Condition !== 'string') {
    throw formatError(`[/Resources/${logicalId}/Condition] Condition must be a string.`);
  }
  return {
    logicalId,
    type: def.Type,
    properties: props,
    dependsOn: dependsOn,
    condition: def.Condition,
    deletionPolicy: def.DeletionPolicy,
    updateReplacePolicy: def.UpdateReplacePolicy,
    metadata: def.Metadata,
    creationPolicy: def.CreationPolicy,
    updatePolicy: def.UpdatePolicy,
    ord,
  };
}

function readOutputs(value: unknown): OutputDef[] {
  const outputs = readSection(value, 'Outputs');
  const names = Object.keys(outputs);
  if (names.length > LIMITS.outputs) {
    throw formatError(`Number of outputs, ${names.length}, is greater than maximum allowed, ${LIMITS.outputs}`);
  }
  return names.map((logicalId) => {
    if (!ALPHANUMERIC.test(logicalId)) throw formatError(`Output name ${echo(logicalId)} is non alphanumeric.`);
    const def = outputs[logicalId];
    if (!isObject(def) || !('Value' in def)) {
      throw formatError('Every Outputs member must contain a Value object');
    }
    if (def.Value === null)
      throw validationError(`[/Outputs/${logicalId}/Value] 'null' values are not allowed in templates`);
    const exportName = isObject(def.Export) ? def.Export.Name : undefined;
    return {
      logicalId,
      value: def.Value,
      description: def.Description,
      exportName,
      condition: def.Condition as string | undefined,
    };
  });
}
