// The spec-driven provider logic every resource type gets: validation, names, physical ids, Ref, GetAtt, replacement.
// Pure functions over the AWS resource specification (resources/spec.ts); family files override what differs.
import { resourceSpec } from './spec.js';

export { validateProperties, LEGACY_VALIDATION_TYPES } from './generic/validate.js';
export { generatePhysicalName, fitParts, NAME_RULES, type GenerateNameArgs, type NameRule } from './generic/naming.js';
export {
  physicalIdFor,
  newIdentity,
  refValue,
  arnFor,
  dnsSuffix,
  ec2Id,
  hasSeparateId,
  ID_FORMATS,
  isArnName,
  NAME_NOT_IDENTITY,
  PHYSICAL_ID_FORMATS,
  REF_EXCEPTIONS,
  REF_IS_ARN,
  REF_IS_NAME,
  isScopedName,
  worldIdOf,
  type AccountContext,
  type NewIdentity,
  type NewIdentityArgs,
  type RefArgs,
} from './generic/identity.js';
export { attributeValues, type AttributeArgs } from './generic/attributes.js';
export { ATTRIBUTE_OVERRIDES } from './generic/attributeOverrides.js';
export {
  replacementProperties,
  changedProperties,
  sameValue,
  type ReplacementCause,
  type RequiresRecreation,
} from './generic/replacement.js';
export { cryptoRandom, seededRandom, randomChars, randomUuid, type RandomSource } from './generic/random.js';

/**
 * Whether `Fn::GetAtt` may name `attr` on `type`. Custom resources return whatever their handler sends, and a
 * nested stack exposes `Outputs.<Name>`; other types offer exactly the spec's attributes.
 */
export function supportsAttribute(type: string, attr: string): boolean {
  if (type.startsWith('Custom::') || type === 'AWS::CloudFormation::CustomResource') return true;
  if (type === 'AWS::CloudFormation::Stack' && attr.startsWith('Outputs.')) return true;
  const spec = resourceSpec(type);
  return spec !== undefined && Object.prototype.hasOwnProperty.call(spec.attributes, attr);
}
